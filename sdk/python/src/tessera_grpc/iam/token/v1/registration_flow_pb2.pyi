from tessera_grpc.iam.token.v1 import authorization_pb2 as _authorization_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BeginRegistrationRequest(_message.Message):
    __slots__ = ("context",)
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ...) -> None: ...

class BeginRegistrationResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...

class SubmitRegistrationRequest(_message.Message):
    __slots__ = ("context", "username", "email", "first_name", "last_name", "password", "confirmation")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    CONFIRMATION_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    username: str
    email: str
    first_name: str
    last_name: str
    password: str
    confirmation: str
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ..., username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., password: _Optional[str] = ..., confirmation: _Optional[str] = ...) -> None: ...

class SubmitRegistrationResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...

class ResendVerificationEmailRequest(_message.Message):
    __slots__ = ("context",)
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ...) -> None: ...

class ResendVerificationEmailResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...

class VerifyEmailRequest(_message.Message):
    __slots__ = ("context", "key")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    context: _authorization_pb2.FlowContext
    key: str
    def __init__(self, context: _Optional[_Union[_authorization_pb2.FlowContext, _Mapping]] = ..., key: _Optional[str] = ...) -> None: ...

class VerifyEmailResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _authorization_pb2.FlowResult
    def __init__(self, result: _Optional[_Union[_authorization_pb2.FlowResult, _Mapping]] = ...) -> None: ...
