import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SamlBinding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SAML_BINDING_UNSPECIFIED: _ClassVar[SamlBinding]
    SAML_BINDING_REDIRECT: _ClassVar[SamlBinding]
    SAML_BINDING_POST: _ClassVar[SamlBinding]
SAML_BINDING_UNSPECIFIED: SamlBinding
SAML_BINDING_REDIRECT: SamlBinding
SAML_BINDING_POST: SamlBinding

class BeginSsoRequest(_message.Message):
    __slots__ = ("realm", "binding", "saml_request", "relay_state", "sig_alg", "signature", "raw_query")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BINDING_FIELD_NUMBER: _ClassVar[int]
    SAML_REQUEST_FIELD_NUMBER: _ClassVar[int]
    RELAY_STATE_FIELD_NUMBER: _ClassVar[int]
    SIG_ALG_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    RAW_QUERY_FIELD_NUMBER: _ClassVar[int]
    realm: str
    binding: SamlBinding
    saml_request: str
    relay_state: str
    sig_alg: str
    signature: str
    raw_query: str
    def __init__(self, realm: _Optional[str] = ..., binding: _Optional[_Union[SamlBinding, str]] = ..., saml_request: _Optional[str] = ..., relay_state: _Optional[str] = ..., sig_alg: _Optional[str] = ..., signature: _Optional[str] = ..., raw_query: _Optional[str] = ...) -> None: ...

class BeginSsoResponse(_message.Message):
    __slots__ = ("pending_id", "sp_name", "force_authn", "sp_entity_id", "is_passive")
    PENDING_ID_FIELD_NUMBER: _ClassVar[int]
    SP_NAME_FIELD_NUMBER: _ClassVar[int]
    FORCE_AUTHN_FIELD_NUMBER: _ClassVar[int]
    SP_ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    IS_PASSIVE_FIELD_NUMBER: _ClassVar[int]
    pending_id: str
    sp_name: str
    force_authn: bool
    sp_entity_id: str
    is_passive: bool
    def __init__(self, pending_id: _Optional[str] = ..., sp_name: _Optional[str] = ..., force_authn: _Optional[bool] = ..., sp_entity_id: _Optional[str] = ..., is_passive: _Optional[bool] = ...) -> None: ...

class CompleteSsoRequest(_message.Message):
    __slots__ = ("realm", "pending_id", "user_id", "session_index", "auth_time")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PENDING_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_INDEX_FIELD_NUMBER: _ClassVar[int]
    AUTH_TIME_FIELD_NUMBER: _ClassVar[int]
    realm: str
    pending_id: str
    user_id: str
    session_index: str
    auth_time: _timestamp_pb2.Timestamp
    def __init__(self, realm: _Optional[str] = ..., pending_id: _Optional[str] = ..., user_id: _Optional[str] = ..., session_index: _Optional[str] = ..., auth_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CompleteSsoResponse(_message.Message):
    __slots__ = ("acs_url", "saml_response", "relay_state")
    ACS_URL_FIELD_NUMBER: _ClassVar[int]
    SAML_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    RELAY_STATE_FIELD_NUMBER: _ClassVar[int]
    acs_url: str
    saml_response: str
    relay_state: str
    def __init__(self, acs_url: _Optional[str] = ..., saml_response: _Optional[str] = ..., relay_state: _Optional[str] = ...) -> None: ...

class FailSsoRequest(_message.Message):
    __slots__ = ("realm", "pending_id", "status_code", "status_message")
    REALM_FIELD_NUMBER: _ClassVar[int]
    PENDING_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    STATUS_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    pending_id: str
    status_code: str
    status_message: str
    def __init__(self, realm: _Optional[str] = ..., pending_id: _Optional[str] = ..., status_code: _Optional[str] = ..., status_message: _Optional[str] = ...) -> None: ...

class FailSsoResponse(_message.Message):
    __slots__ = ("acs_url", "saml_response", "relay_state")
    ACS_URL_FIELD_NUMBER: _ClassVar[int]
    SAML_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    RELAY_STATE_FIELD_NUMBER: _ClassVar[int]
    acs_url: str
    saml_response: str
    relay_state: str
    def __init__(self, acs_url: _Optional[str] = ..., saml_response: _Optional[str] = ..., relay_state: _Optional[str] = ...) -> None: ...

class BeginSloRequest(_message.Message):
    __slots__ = ("realm", "binding", "saml_request", "saml_response", "relay_state", "sig_alg", "signature", "raw_query")
    REALM_FIELD_NUMBER: _ClassVar[int]
    BINDING_FIELD_NUMBER: _ClassVar[int]
    SAML_REQUEST_FIELD_NUMBER: _ClassVar[int]
    SAML_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    RELAY_STATE_FIELD_NUMBER: _ClassVar[int]
    SIG_ALG_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    RAW_QUERY_FIELD_NUMBER: _ClassVar[int]
    realm: str
    binding: SamlBinding
    saml_request: str
    saml_response: str
    relay_state: str
    sig_alg: str
    signature: str
    raw_query: str
    def __init__(self, realm: _Optional[str] = ..., binding: _Optional[_Union[SamlBinding, str]] = ..., saml_request: _Optional[str] = ..., saml_response: _Optional[str] = ..., relay_state: _Optional[str] = ..., sig_alg: _Optional[str] = ..., signature: _Optional[str] = ..., raw_query: _Optional[str] = ...) -> None: ...

class SamlOutbound(_message.Message):
    __slots__ = ("binding", "url", "redirect_url", "saml_field", "value", "relay_state", "sp_id")
    BINDING_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    SAML_FIELD_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    RELAY_STATE_FIELD_NUMBER: _ClassVar[int]
    SP_ID_FIELD_NUMBER: _ClassVar[int]
    binding: SamlBinding
    url: str
    redirect_url: str
    saml_field: str
    value: str
    relay_state: str
    sp_id: str
    def __init__(self, binding: _Optional[_Union[SamlBinding, str]] = ..., url: _Optional[str] = ..., redirect_url: _Optional[str] = ..., saml_field: _Optional[str] = ..., value: _Optional[str] = ..., relay_state: _Optional[str] = ..., sp_id: _Optional[str] = ...) -> None: ...

class BeginSloResponse(_message.Message):
    __slots__ = ("session_index", "user_id", "logout_response", "was_response", "success", "signed", "sp_entity_id")
    SESSION_INDEX_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    LOGOUT_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    WAS_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    SIGNED_FIELD_NUMBER: _ClassVar[int]
    SP_ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    session_index: str
    user_id: str
    logout_response: SamlOutbound
    was_response: bool
    success: bool
    signed: bool
    sp_entity_id: str
    def __init__(self, session_index: _Optional[str] = ..., user_id: _Optional[str] = ..., logout_response: _Optional[_Union[SamlOutbound, _Mapping]] = ..., was_response: _Optional[bool] = ..., success: _Optional[bool] = ..., signed: _Optional[bool] = ..., sp_entity_id: _Optional[str] = ...) -> None: ...

class BuildLogoutRequestsRequest(_message.Message):
    __slots__ = ("realm", "session_index", "except_sp_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SESSION_INDEX_FIELD_NUMBER: _ClassVar[int]
    EXCEPT_SP_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    session_index: str
    except_sp_id: str
    def __init__(self, realm: _Optional[str] = ..., session_index: _Optional[str] = ..., except_sp_id: _Optional[str] = ...) -> None: ...

class BuildLogoutRequestsResponse(_message.Message):
    __slots__ = ("logout_requests",)
    LOGOUT_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    logout_requests: _containers.RepeatedCompositeFieldContainer[SamlOutbound]
    def __init__(self, logout_requests: _Optional[_Iterable[_Union[SamlOutbound, _Mapping]]] = ...) -> None: ...
