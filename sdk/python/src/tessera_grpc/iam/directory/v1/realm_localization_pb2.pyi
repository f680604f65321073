from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LocalizationTexts(_message.Message):
    __slots__ = ("texts",)
    class TextsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    texts: _containers.ScalarMap[str, str]
    def __init__(self, texts: _Optional[_Mapping[str, str]] = ...) -> None: ...

class GetLocalizationTextsRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class GetLocalizationTextsResponse(_message.Message):
    __slots__ = ("locales",)
    class LocalesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: LocalizationTexts
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[LocalizationTexts, _Mapping]] = ...) -> None: ...
    LOCALES_FIELD_NUMBER: _ClassVar[int]
    locales: _containers.MessageMap[str, LocalizationTexts]
    def __init__(self, locales: _Optional[_Mapping[str, LocalizationTexts]] = ...) -> None: ...

class PutLocalizationTextsRequest(_message.Message):
    __slots__ = ("realm", "locale", "texts", "merge")
    class TextsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REALM_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    MERGE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    locale: str
    texts: _containers.ScalarMap[str, str]
    merge: bool
    def __init__(self, realm: _Optional[str] = ..., locale: _Optional[str] = ..., texts: _Optional[_Mapping[str, str]] = ..., merge: _Optional[bool] = ...) -> None: ...

class PutLocalizationTextsResponse(_message.Message):
    __slots__ = ("texts",)
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    texts: LocalizationTexts
    def __init__(self, texts: _Optional[_Union[LocalizationTexts, _Mapping]] = ...) -> None: ...

class DeleteLocalizationTextsRequest(_message.Message):
    __slots__ = ("realm", "locale", "key")
    REALM_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    realm: str
    locale: str
    key: str
    def __init__(self, realm: _Optional[str] = ..., locale: _Optional[str] = ..., key: _Optional[str] = ...) -> None: ...

class DeleteLocalizationTextsResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
