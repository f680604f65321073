from tessera_grpc.iam.token.v1 import sessions_pb2 as _sessions_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RecordAccountEventRequest(_message.Message):
    __slots__ = ("realm", "user_id", "type", "session_id", "ip_address", "details")
    class DetailsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    type: str
    session_id: str
    ip_address: str
    details: _containers.ScalarMap[str, str]
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., type: _Optional[str] = ..., session_id: _Optional[str] = ..., ip_address: _Optional[str] = ..., details: _Optional[_Mapping[str, str]] = ...) -> None: ...

class RecordAccountEventResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AuthenticateRequest(_message.Message):
    __slots__ = ("realm", "base_url", "access_token")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    realm: str
    base_url: str
    access_token: str
    def __init__(self, realm: _Optional[str] = ..., base_url: _Optional[str] = ..., access_token: _Optional[str] = ...) -> None: ...

class AuthenticateResponse(_message.Message):
    __slots__ = ("user_id", "session_id")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    session_id: str
    def __init__(self, user_id: _Optional[str] = ..., session_id: _Optional[str] = ...) -> None: ...

class ListSessionsRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class ListSessionsResponse(_message.Message):
    __slots__ = ("sessions",)
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[_sessions_pb2.Session]
    def __init__(self, sessions: _Optional[_Iterable[_Union[_sessions_pb2.Session, _Mapping]]] = ...) -> None: ...

class SignOutSessionRequest(_message.Message):
    __slots__ = ("realm", "user_id", "session_id", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    session_id: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., session_id: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class SignOutSessionResponse(_message.Message):
    __slots__ = ("type",)
    TYPE_FIELD_NUMBER: _ClassVar[int]
    type: str
    def __init__(self, type: _Optional[str] = ...) -> None: ...

class SignOutAllSessionsRequest(_message.Message):
    __slots__ = ("realm", "user_id", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class SignOutAllSessionsResponse(_message.Message):
    __slots__ = ("count",)
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class ListConsentsRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class Consent(_message.Message):
    __slots__ = ("client_id", "granted_scopes", "created_date", "last_updated_date")
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    GRANTED_SCOPES_FIELD_NUMBER: _ClassVar[int]
    CREATED_DATE_FIELD_NUMBER: _ClassVar[int]
    LAST_UPDATED_DATE_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    granted_scopes: _containers.RepeatedScalarFieldContainer[str]
    created_date: int
    last_updated_date: int
    def __init__(self, client_id: _Optional[str] = ..., granted_scopes: _Optional[_Iterable[str]] = ..., created_date: _Optional[int] = ..., last_updated_date: _Optional[int] = ...) -> None: ...

class ListConsentsResponse(_message.Message):
    __slots__ = ("consents",)
    CONSENTS_FIELD_NUMBER: _ClassVar[int]
    consents: _containers.RepeatedCompositeFieldContainer[Consent]
    def __init__(self, consents: _Optional[_Iterable[_Union[Consent, _Mapping]]] = ...) -> None: ...

class RevokeConsentRequest(_message.Message):
    __slots__ = ("realm", "user_id", "client_id", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    client_id: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., client_id: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class RevokeConsentResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
