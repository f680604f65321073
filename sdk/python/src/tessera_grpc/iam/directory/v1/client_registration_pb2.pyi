import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class InitialAccessToken(_message.Message):
    __slots__ = ("id", "token", "expiration", "count", "remaining_count", "created_at", "expires_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRATION_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    REMAINING_COUNT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    token: str
    expiration: int
    count: int
    remaining_count: int
    created_at: _timestamp_pb2.Timestamp
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., token: _Optional[str] = ..., expiration: _Optional[int] = ..., count: _Optional[int] = ..., remaining_count: _Optional[int] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class InitialAccessTokenInput(_message.Message):
    __slots__ = ("expiration", "count")
    EXPIRATION_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    expiration: int
    count: int
    def __init__(self, expiration: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class RegistrationPolicy(_message.Message):
    __slots__ = ("anonymous_registration_allowed", "allowed_redirect_uri_hosts", "allowed_grant_types", "max_clients", "registered_clients")
    ANONYMOUS_REGISTRATION_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_REDIRECT_URI_HOSTS_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    MAX_CLIENTS_FIELD_NUMBER: _ClassVar[int]
    REGISTERED_CLIENTS_FIELD_NUMBER: _ClassVar[int]
    anonymous_registration_allowed: bool
    allowed_redirect_uri_hosts: _containers.RepeatedScalarFieldContainer[str]
    allowed_grant_types: _containers.RepeatedScalarFieldContainer[str]
    max_clients: int
    registered_clients: int
    def __init__(self, anonymous_registration_allowed: _Optional[bool] = ..., allowed_redirect_uri_hosts: _Optional[_Iterable[str]] = ..., allowed_grant_types: _Optional[_Iterable[str]] = ..., max_clients: _Optional[int] = ..., registered_clients: _Optional[int] = ...) -> None: ...

class RegistrationPolicyUpdate(_message.Message):
    __slots__ = ("anonymous_registration_allowed", "allowed_redirect_uri_hosts", "allowed_grant_types", "max_clients", "allowed_redirect_uri_hosts_present", "allowed_grant_types_present")
    ANONYMOUS_REGISTRATION_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_REDIRECT_URI_HOSTS_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    MAX_CLIENTS_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_REDIRECT_URI_HOSTS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_GRANT_TYPES_PRESENT_FIELD_NUMBER: _ClassVar[int]
    anonymous_registration_allowed: bool
    allowed_redirect_uri_hosts: _containers.RepeatedScalarFieldContainer[str]
    allowed_grant_types: _containers.RepeatedScalarFieldContainer[str]
    max_clients: int
    allowed_redirect_uri_hosts_present: bool
    allowed_grant_types_present: bool
    def __init__(self, anonymous_registration_allowed: _Optional[bool] = ..., allowed_redirect_uri_hosts: _Optional[_Iterable[str]] = ..., allowed_grant_types: _Optional[_Iterable[str]] = ..., max_clients: _Optional[int] = ..., allowed_redirect_uri_hosts_present: _Optional[bool] = ..., allowed_grant_types_present: _Optional[bool] = ...) -> None: ...

class CreateInitialAccessTokenRequest(_message.Message):
    __slots__ = ("realm", "input")
    REALM_FIELD_NUMBER: _ClassVar[int]
    INPUT_FIELD_NUMBER: _ClassVar[int]
    realm: str
    input: InitialAccessTokenInput
    def __init__(self, realm: _Optional[str] = ..., input: _Optional[_Union[InitialAccessTokenInput, _Mapping]] = ...) -> None: ...

class CreateInitialAccessTokenResponse(_message.Message):
    __slots__ = ("token",)
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: InitialAccessToken
    def __init__(self, token: _Optional[_Union[InitialAccessToken, _Mapping]] = ...) -> None: ...

class ListInitialAccessTokensRequest(_message.Message):
    __slots__ = ("realm", "first", "max")
    REALM_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    realm: str
    first: int
    max: int
    def __init__(self, realm: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ListInitialAccessTokensResponse(_message.Message):
    __slots__ = ("tokens",)
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    tokens: _containers.RepeatedCompositeFieldContainer[InitialAccessToken]
    def __init__(self, tokens: _Optional[_Iterable[_Union[InitialAccessToken, _Mapping]]] = ...) -> None: ...

class DeleteInitialAccessTokenRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class DeleteInitialAccessTokenResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetRegistrationPolicyRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class GetRegistrationPolicyResponse(_message.Message):
    __slots__ = ("policy",)
    POLICY_FIELD_NUMBER: _ClassVar[int]
    policy: RegistrationPolicy
    def __init__(self, policy: _Optional[_Union[RegistrationPolicy, _Mapping]] = ...) -> None: ...

class UpdateRegistrationPolicyRequest(_message.Message):
    __slots__ = ("realm", "update")
    REALM_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    update: RegistrationPolicyUpdate
    def __init__(self, realm: _Optional[str] = ..., update: _Optional[_Union[RegistrationPolicyUpdate, _Mapping]] = ...) -> None: ...

class UpdateRegistrationPolicyResponse(_message.Message):
    __slots__ = ("policy",)
    POLICY_FIELD_NUMBER: _ClassVar[int]
    policy: RegistrationPolicy
    def __init__(self, policy: _Optional[_Union[RegistrationPolicy, _Mapping]] = ...) -> None: ...

class RegisterClientRequest(_message.Message):
    __slots__ = ("realm", "initial_access_token", "metadata")
    REALM_FIELD_NUMBER: _ClassVar[int]
    INITIAL_ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    realm: str
    initial_access_token: str
    metadata: _struct_pb2.Struct
    def __init__(self, realm: _Optional[str] = ..., initial_access_token: _Optional[str] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class RegisterClientResponse(_message.Message):
    __slots__ = ("metadata",)
    METADATA_FIELD_NUMBER: _ClassVar[int]
    metadata: _struct_pb2.Struct
    def __init__(self, metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class GetRegisteredClientResponse(_message.Message):
    __slots__ = ("metadata",)
    METADATA_FIELD_NUMBER: _ClassVar[int]
    metadata: _struct_pb2.Struct
    def __init__(self, metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class UpdateRegisteredClientResponse(_message.Message):
    __slots__ = ("metadata",)
    METADATA_FIELD_NUMBER: _ClassVar[int]
    metadata: _struct_pb2.Struct
    def __init__(self, metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class GetRegisteredClientRequest(_message.Message):
    __slots__ = ("realm", "client_id", "registration_access_token")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    registration_access_token: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., registration_access_token: _Optional[str] = ...) -> None: ...

class UpdateRegisteredClientRequest(_message.Message):
    __slots__ = ("realm", "client_id", "registration_access_token", "metadata")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    registration_access_token: str
    metadata: _struct_pb2.Struct
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., registration_access_token: _Optional[str] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class DeleteRegisteredClientRequest(_message.Message):
    __slots__ = ("realm", "client_id", "registration_access_token")
    REALM_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    realm: str
    client_id: str
    registration_access_token: str
    def __init__(self, realm: _Optional[str] = ..., client_id: _Optional[str] = ..., registration_access_token: _Optional[str] = ...) -> None: ...

class DeleteRegisteredClientResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
