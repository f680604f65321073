import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tessera_grpc.iam.kit.v1 import kit_pb2 as _kit_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class VerifyOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERIFY_OUTCOME_UNSPECIFIED: _ClassVar[VerifyOutcome]
    VERIFY_OUTCOME_OK: _ClassVar[VerifyOutcome]
    VERIFY_OUTCOME_INVALID_CREDENTIALS: _ClassVar[VerifyOutcome]
    VERIFY_OUTCOME_UNAVAILABLE: _ClassVar[VerifyOutcome]
    VERIFY_OUTCOME_UNKNOWN: _ClassVar[VerifyOutcome]
VERIFY_OUTCOME_UNSPECIFIED: VerifyOutcome
VERIFY_OUTCOME_OK: VerifyOutcome
VERIFY_OUTCOME_INVALID_CREDENTIALS: VerifyOutcome
VERIFY_OUTCOME_UNAVAILABLE: VerifyOutcome
VERIFY_OUTCOME_UNKNOWN: VerifyOutcome

class HealthRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HealthResponse(_message.Message):
    __slots__ = ("health",)
    HEALTH_FIELD_NUMBER: _ClassVar[int]
    health: _kit_pb2.ServiceHealth
    def __init__(self, health: _Optional[_Union[_kit_pb2.ServiceHealth, _Mapping]] = ...) -> None: ...

class SyncResult(_message.Message):
    __slots__ = ("created", "updated", "failed", "removed", "finished_at")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    created: int
    updated: int
    failed: int
    removed: int
    finished_at: _timestamp_pb2.Timestamp
    def __init__(self, created: _Optional[int] = ..., updated: _Optional[int] = ..., failed: _Optional[int] = ..., removed: _Optional[int] = ..., finished_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Provider(_message.Message):
    __slots__ = ("id", "name", "provider_type", "enabled", "priority", "connection_url", "bind_dn", "users_dn", "user_object_class", "username_ldap_attr", "uuid_ldap_attr", "email_ldap_attr", "first_name_ldap_attr", "last_name_ldap_attr", "sync_mode", "sync_period", "import_enabled", "connection_timeout", "vanished_users", "created_at", "updated_at", "last_sync", "changed_sync_period")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_TYPE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_URL_FIELD_NUMBER: _ClassVar[int]
    BIND_DN_FIELD_NUMBER: _ClassVar[int]
    USERS_DN_FIELD_NUMBER: _ClassVar[int]
    USER_OBJECT_CLASS_FIELD_NUMBER: _ClassVar[int]
    USERNAME_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    UUID_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    EMAIL_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    SYNC_MODE_FIELD_NUMBER: _ClassVar[int]
    SYNC_PERIOD_FIELD_NUMBER: _ClassVar[int]
    IMPORT_ENABLED_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    VANISHED_USERS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_SYNC_FIELD_NUMBER: _ClassVar[int]
    CHANGED_SYNC_PERIOD_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    provider_type: str
    enabled: bool
    priority: int
    connection_url: str
    bind_dn: str
    users_dn: str
    user_object_class: str
    username_ldap_attr: str
    uuid_ldap_attr: str
    email_ldap_attr: str
    first_name_ldap_attr: str
    last_name_ldap_attr: str
    sync_mode: str
    sync_period: int
    import_enabled: bool
    connection_timeout: int
    vanished_users: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    last_sync: SyncResult
    changed_sync_period: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., provider_type: _Optional[str] = ..., enabled: _Optional[bool] = ..., priority: _Optional[int] = ..., connection_url: _Optional[str] = ..., bind_dn: _Optional[str] = ..., users_dn: _Optional[str] = ..., user_object_class: _Optional[str] = ..., username_ldap_attr: _Optional[str] = ..., uuid_ldap_attr: _Optional[str] = ..., email_ldap_attr: _Optional[str] = ..., first_name_ldap_attr: _Optional[str] = ..., last_name_ldap_attr: _Optional[str] = ..., sync_mode: _Optional[str] = ..., sync_period: _Optional[int] = ..., import_enabled: _Optional[bool] = ..., connection_timeout: _Optional[int] = ..., vanished_users: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_sync: _Optional[_Union[SyncResult, _Mapping]] = ..., changed_sync_period: _Optional[int] = ...) -> None: ...

class ProviderInput(_message.Message):
    __slots__ = ("name", "provider_type", "enabled", "priority", "connection_url", "bind_dn", "bind_credential", "users_dn", "user_object_class", "username_ldap_attr", "uuid_ldap_attr", "email_ldap_attr", "first_name_ldap_attr", "last_name_ldap_attr", "sync_mode", "sync_period", "import_enabled", "connection_timeout", "vanished_users", "changed_sync_period")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_TYPE_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_URL_FIELD_NUMBER: _ClassVar[int]
    BIND_DN_FIELD_NUMBER: _ClassVar[int]
    BIND_CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    USERS_DN_FIELD_NUMBER: _ClassVar[int]
    USER_OBJECT_CLASS_FIELD_NUMBER: _ClassVar[int]
    USERNAME_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    UUID_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    EMAIL_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_LDAP_ATTR_FIELD_NUMBER: _ClassVar[int]
    SYNC_MODE_FIELD_NUMBER: _ClassVar[int]
    SYNC_PERIOD_FIELD_NUMBER: _ClassVar[int]
    IMPORT_ENABLED_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    VANISHED_USERS_FIELD_NUMBER: _ClassVar[int]
    CHANGED_SYNC_PERIOD_FIELD_NUMBER: _ClassVar[int]
    name: str
    provider_type: str
    enabled: bool
    priority: int
    connection_url: str
    bind_dn: str
    bind_credential: str
    users_dn: str
    user_object_class: str
    username_ldap_attr: str
    uuid_ldap_attr: str
    email_ldap_attr: str
    first_name_ldap_attr: str
    last_name_ldap_attr: str
    sync_mode: str
    sync_period: int
    import_enabled: bool
    connection_timeout: int
    vanished_users: str
    changed_sync_period: int
    def __init__(self, name: _Optional[str] = ..., provider_type: _Optional[str] = ..., enabled: _Optional[bool] = ..., priority: _Optional[int] = ..., connection_url: _Optional[str] = ..., bind_dn: _Optional[str] = ..., bind_credential: _Optional[str] = ..., users_dn: _Optional[str] = ..., user_object_class: _Optional[str] = ..., username_ldap_attr: _Optional[str] = ..., uuid_ldap_attr: _Optional[str] = ..., email_ldap_attr: _Optional[str] = ..., first_name_ldap_attr: _Optional[str] = ..., last_name_ldap_attr: _Optional[str] = ..., sync_mode: _Optional[str] = ..., sync_period: _Optional[int] = ..., import_enabled: _Optional[bool] = ..., connection_timeout: _Optional[int] = ..., vanished_users: _Optional[str] = ..., changed_sync_period: _Optional[int] = ...) -> None: ...

class CreateProviderRequest(_message.Message):
    __slots__ = ("realm", "provider")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    provider: ProviderInput
    def __init__(self, realm: _Optional[str] = ..., provider: _Optional[_Union[ProviderInput, _Mapping]] = ...) -> None: ...

class UpdateProviderRequest(_message.Message):
    __slots__ = ("realm", "id", "provider")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    provider: ProviderInput
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ..., provider: _Optional[_Union[ProviderInput, _Mapping]] = ...) -> None: ...

class GetProviderRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class ListProvidersRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class CreateProviderResponse(_message.Message):
    __slots__ = ("provider",)
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    provider: Provider
    def __init__(self, provider: _Optional[_Union[Provider, _Mapping]] = ...) -> None: ...

class GetProviderResponse(_message.Message):
    __slots__ = ("provider",)
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    provider: Provider
    def __init__(self, provider: _Optional[_Union[Provider, _Mapping]] = ...) -> None: ...

class UpdateProviderResponse(_message.Message):
    __slots__ = ("provider",)
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    provider: Provider
    def __init__(self, provider: _Optional[_Union[Provider, _Mapping]] = ...) -> None: ...

class DeleteProviderRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class DeleteProviderResponse(_message.Message):
    __slots__ = ("provider",)
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    provider: Provider
    def __init__(self, provider: _Optional[_Union[Provider, _Mapping]] = ...) -> None: ...

class TestConnectionRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class ListProvidersResponse(_message.Message):
    __slots__ = ("providers",)
    PROVIDERS_FIELD_NUMBER: _ClassVar[int]
    providers: _containers.RepeatedCompositeFieldContainer[Provider]
    def __init__(self, providers: _Optional[_Iterable[_Union[Provider, _Mapping]]] = ...) -> None: ...

class SyncProviderRequest(_message.Message):
    __slots__ = ("realm", "id", "changed_only")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    CHANGED_ONLY_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    changed_only: bool
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ..., changed_only: _Optional[bool] = ...) -> None: ...

class TestConnectionResponse(_message.Message):
    __slots__ = ("success", "error", "message")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    success: bool
    error: str
    message: str
    def __init__(self, success: _Optional[bool] = ..., error: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class SyncProviderResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: SyncResult
    def __init__(self, result: _Optional[_Union[SyncResult, _Mapping]] = ...) -> None: ...

class LdapEntry(_message.Message):
    __slots__ = ("provider_id", "external_id", "dn", "username", "email", "first_name", "last_name", "read_only")
    PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_ID_FIELD_NUMBER: _ClassVar[int]
    DN_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    READ_ONLY_FIELD_NUMBER: _ClassVar[int]
    provider_id: str
    external_id: str
    dn: str
    username: str
    email: str
    first_name: str
    last_name: str
    read_only: bool
    def __init__(self, provider_id: _Optional[str] = ..., external_id: _Optional[str] = ..., dn: _Optional[str] = ..., username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., read_only: _Optional[bool] = ...) -> None: ...

class FindEntryRequest(_message.Message):
    __slots__ = ("realm", "username", "realm_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    username: str
    realm_id: str
    def __init__(self, realm: _Optional[str] = ..., username: _Optional[str] = ..., realm_id: _Optional[str] = ...) -> None: ...

class FindEntryResponse(_message.Message):
    __slots__ = ("found", "entry", "unavailable", "unavailable_reason")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_REASON_FIELD_NUMBER: _ClassVar[int]
    found: bool
    entry: LdapEntry
    unavailable: bool
    unavailable_reason: str
    def __init__(self, found: _Optional[bool] = ..., entry: _Optional[_Union[LdapEntry, _Mapping]] = ..., unavailable: _Optional[bool] = ..., unavailable_reason: _Optional[str] = ...) -> None: ...

class VerifyPasswordRequest(_message.Message):
    __slots__ = ("realm", "provider_id", "external_id", "dn", "password", "realm_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_ID_FIELD_NUMBER: _ClassVar[int]
    DN_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    provider_id: str
    external_id: str
    dn: str
    password: str
    realm_id: str
    def __init__(self, realm: _Optional[str] = ..., provider_id: _Optional[str] = ..., external_id: _Optional[str] = ..., dn: _Optional[str] = ..., password: _Optional[str] = ..., realm_id: _Optional[str] = ...) -> None: ...

class VerifyPasswordResponse(_message.Message):
    __slots__ = ("outcome", "reason")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    outcome: VerifyOutcome
    reason: str
    def __init__(self, outcome: _Optional[_Union[VerifyOutcome, str]] = ..., reason: _Optional[str] = ...) -> None: ...

class DescribeLinkRequest(_message.Message):
    __slots__ = ("realm", "provider_id", "realm_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    provider_id: str
    realm_id: str
    def __init__(self, realm: _Optional[str] = ..., provider_id: _Optional[str] = ..., realm_id: _Optional[str] = ...) -> None: ...

class DescribeLinkResponse(_message.Message):
    __slots__ = ("exists", "sync_mode", "provider_name")
    EXISTS_FIELD_NUMBER: _ClassVar[int]
    SYNC_MODE_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_NAME_FIELD_NUMBER: _ClassVar[int]
    exists: bool
    sync_mode: str
    provider_name: str
    def __init__(self, exists: _Optional[bool] = ..., sync_mode: _Optional[str] = ..., provider_name: _Optional[str] = ...) -> None: ...
