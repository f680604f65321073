from tessera_grpc.iam.token.v1 import authorization_pb2 as _authorization_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BeginResetCredentialsRequest(_message.Message):
    __slots__ = ("context",)
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ...) -> None: ...

class BeginResetCredentialsResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...

class SubmitResetCredentialsRequest(_message.Message):
    __slots__ = ("context", "username")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    username: str
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ..., username: _Optional[str] = ...) -> None: ...

class SubmitResetCredentialsResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...

class OpenResetLinkRequest(_message.Message):
    __slots__ = ("context", "key")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    key: str
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ..., key: _Optional[str] = ...) -> None: ...

class OpenResetLinkResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...

class SubmitResetPasswordRequest(_message.Message):
    __slots__ = ("context", "key", "new_password", "confirmation")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    CONFIRMATION_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    key: str
    new_password: str
    confirmation: str
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ..., key: _Optional[str] = ..., new_password: _Optional[str] = ..., confirmation: _Optional[str] = ...) -> None: ...

class SubmitResetPasswordResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...

class ReturnToLoginRequest(_message.Message):
    __slots__ = ("context",)
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ...) -> None: ...

class ReturnToLoginResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...

class OpenActionLinkRequest(_message.Message):
    __slots__ = ("context", "key")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    key: str
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ..., key: _Optional[str] = ...) -> None: ...

class OpenActionLinkResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...
