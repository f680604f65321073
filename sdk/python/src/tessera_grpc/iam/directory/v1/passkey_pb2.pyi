from tessera_grpc.iam.directory.v1 import authentication_pb2 as _authentication_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PasskeyRelyingParty(_message.Message):
    __slots__ = ("rp_id", "origin", "rp_name")
    RP_ID_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    RP_NAME_FIELD_NUMBER: _ClassVar[int]
    rp_id: str
    origin: str
    rp_name: str
    def __init__(self, rp_id: _Optional[str] = ..., origin: _Optional[str] = ..., rp_name: _Optional[str] = ...) -> None: ...

class RegistrationOptionsRequest(_message.Message):
    __slots__ = ("realm", "user_id", "rp", "challenge")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    RP_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    rp: PasskeyRelyingParty
    challenge: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., rp: _Optional[_Union[PasskeyRelyingParty, _Mapping]] = ..., challenge: _Optional[str] = ...) -> None: ...

class RegistrationOptionsResponse(_message.Message):
    __slots__ = ("options_json",)
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    options_json: str
    def __init__(self, options_json: _Optional[str] = ...) -> None: ...

class AuthenticationOptionsResponse(_message.Message):
    __slots__ = ("options_json",)
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    options_json: str
    def __init__(self, options_json: _Optional[str] = ...) -> None: ...

class VerifyRegistrationRequest(_message.Message):
    __slots__ = ("realm", "user_id", "rp", "expected_challenge", "response_json", "label")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    RP_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_JSON_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    rp: PasskeyRelyingParty
    expected_challenge: str
    response_json: str
    label: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., rp: _Optional[_Union[PasskeyRelyingParty, _Mapping]] = ..., expected_challenge: _Optional[str] = ..., response_json: _Optional[str] = ..., label: _Optional[str] = ...) -> None: ...

class VerifyRegistrationResponse(_message.Message):
    __slots__ = ("verified", "passkey_id", "error")
    VERIFIED_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    verified: bool
    passkey_id: str
    error: str
    def __init__(self, verified: _Optional[bool] = ..., passkey_id: _Optional[str] = ..., error: _Optional[str] = ...) -> None: ...

class AuthenticationOptionsRequest(_message.Message):
    __slots__ = ("realm", "user_id", "rp", "challenge")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    RP_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    rp: PasskeyRelyingParty
    challenge: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., rp: _Optional[_Union[PasskeyRelyingParty, _Mapping]] = ..., challenge: _Optional[str] = ...) -> None: ...

class VerifyAuthenticationRequest(_message.Message):
    __slots__ = ("realm", "user_id", "rp", "expected_challenge", "response_json")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    RP_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_JSON_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    rp: PasskeyRelyingParty
    expected_challenge: str
    response_json: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., rp: _Optional[_Union[PasskeyRelyingParty, _Mapping]] = ..., expected_challenge: _Optional[str] = ..., response_json: _Optional[str] = ...) -> None: ...

class VerifyAuthenticationResponse(_message.Message):
    __slots__ = ("outcome", "user_id", "username", "event_error", "user_verified")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EVENT_ERROR_FIELD_NUMBER: _ClassVar[int]
    USER_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    outcome: _authentication_pb2.AuthOutcome
    user_id: str
    username: str
    event_error: str
    user_verified: bool
    def __init__(self, outcome: _Optional[_Union[_authentication_pb2.AuthOutcome, str]] = ..., user_id: _Optional[str] = ..., username: _Optional[str] = ..., event_error: _Optional[str] = ..., user_verified: _Optional[bool] = ...) -> None: ...

class ListPasskeysRequest(_message.Message):
    __slots__ = ("realm", "user_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class Passkey(_message.Message):
    __slots__ = ("id", "credential_id", "label", "transports", "sign_count", "created", "last_used", "backed_up")
    ID_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TRANSPORTS_FIELD_NUMBER: _ClassVar[int]
    SIGN_COUNT_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    LAST_USED_FIELD_NUMBER: _ClassVar[int]
    BACKED_UP_FIELD_NUMBER: _ClassVar[int]
    id: str
    credential_id: str
    label: str
    transports: _containers.RepeatedScalarFieldContainer[str]
    sign_count: int
    created: int
    last_used: int
    backed_up: bool
    def __init__(self, id: _Optional[str] = ..., credential_id: _Optional[str] = ..., label: _Optional[str] = ..., transports: _Optional[_Iterable[str]] = ..., sign_count: _Optional[int] = ..., created: _Optional[int] = ..., last_used: _Optional[int] = ..., backed_up: _Optional[bool] = ...) -> None: ...

class ListPasskeysResponse(_message.Message):
    __slots__ = ("passkeys",)
    PASSKEYS_FIELD_NUMBER: _ClassVar[int]
    passkeys: _containers.RepeatedCompositeFieldContainer[Passkey]
    def __init__(self, passkeys: _Optional[_Iterable[_Union[Passkey, _Mapping]]] = ...) -> None: ...

class DeletePasskeyRequest(_message.Message):
    __slots__ = ("realm", "user_id", "passkey_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    passkey_id: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., passkey_id: _Optional[str] = ...) -> None: ...

class DeletePasskeyResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
