import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CertificateInfo(_message.Message):
    __slots__ = ("subject", "not_after", "fingerprint_sha256")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    NOT_AFTER_FIELD_NUMBER: _ClassVar[int]
    FINGERPRINT_SHA256_FIELD_NUMBER: _ClassVar[int]
    subject: str
    not_after: _timestamp_pb2.Timestamp
    fingerprint_sha256: str
    def __init__(self, subject: _Optional[str] = ..., not_after: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., fingerprint_sha256: _Optional[str] = ...) -> None: ...

class ServiceProvider(_message.Message):
    __slots__ = ("id", "entity_id", "name", "enabled", "acs_url", "slo_url", "certificate", "certificate_info", "name_id_format", "sign_assertions", "sign_responses", "attribute_statements", "created_at", "updated_at", "require_signed_requests")
    class AttributeStatementsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    ACS_URL_FIELD_NUMBER: _ClassVar[int]
    SLO_URL_FIELD_NUMBER: _ClassVar[int]
    CERTIFICATE_FIELD_NUMBER: _ClassVar[int]
    CERTIFICATE_INFO_FIELD_NUMBER: _ClassVar[int]
    NAME_ID_FORMAT_FIELD_NUMBER: _ClassVar[int]
    SIGN_ASSERTIONS_FIELD_NUMBER: _ClassVar[int]
    SIGN_RESPONSES_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_STATEMENTS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_SIGNED_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    entity_id: str
    name: str
    enabled: bool
    acs_url: str
    slo_url: str
    certificate: str
    certificate_info: CertificateInfo
    name_id_format: str
    sign_assertions: bool
    sign_responses: bool
    attribute_statements: _containers.ScalarMap[str, str]
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    require_signed_requests: bool
    def __init__(self, id: _Optional[str] = ..., entity_id: _Optional[str] = ..., name: _Optional[str] = ..., enabled: _Optional[bool] = ..., acs_url: _Optional[str] = ..., slo_url: _Optional[str] = ..., certificate: _Optional[str] = ..., certificate_info: _Optional[_Union[CertificateInfo, _Mapping]] = ..., name_id_format: _Optional[str] = ..., sign_assertions: _Optional[bool] = ..., sign_responses: _Optional[bool] = ..., attribute_statements: _Optional[_Mapping[str, str]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., require_signed_requests: _Optional[bool] = ...) -> None: ...

class ServiceProviderInput(_message.Message):
    __slots__ = ("entity_id", "name", "enabled", "acs_url", "slo_url", "certificate", "name_id_format", "sign_assertions", "sign_responses", "attribute_statements", "attribute_statements_present", "require_signed_requests")
    class AttributeStatementsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    ACS_URL_FIELD_NUMBER: _ClassVar[int]
    SLO_URL_FIELD_NUMBER: _ClassVar[int]
    CERTIFICATE_FIELD_NUMBER: _ClassVar[int]
    NAME_ID_FORMAT_FIELD_NUMBER: _ClassVar[int]
    SIGN_ASSERTIONS_FIELD_NUMBER: _ClassVar[int]
    SIGN_RESPONSES_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_STATEMENTS_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_STATEMENTS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_SIGNED_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    entity_id: str
    name: str
    enabled: bool
    acs_url: str
    slo_url: str
    certificate: str
    name_id_format: str
    sign_assertions: bool
    sign_responses: bool
    attribute_statements: _containers.ScalarMap[str, str]
    attribute_statements_present: bool
    require_signed_requests: bool
    def __init__(self, entity_id: _Optional[str] = ..., name: _Optional[str] = ..., enabled: _Optional[bool] = ..., acs_url: _Optional[str] = ..., slo_url: _Optional[str] = ..., certificate: _Optional[str] = ..., name_id_format: _Optional[str] = ..., sign_assertions: _Optional[bool] = ..., sign_responses: _Optional[bool] = ..., attribute_statements: _Optional[_Mapping[str, str]] = ..., attribute_statements_present: _Optional[bool] = ..., require_signed_requests: _Optional[bool] = ...) -> None: ...

class RegisterServiceProviderRequest(_message.Message):
    __slots__ = ("realm", "service_provider")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SERVICE_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    service_provider: ServiceProviderInput
    def __init__(self, realm: _Optional[str] = ..., service_provider: _Optional[_Union[ServiceProviderInput, _Mapping]] = ...) -> None: ...

class RegisterServiceProviderResponse(_message.Message):
    __slots__ = ("service_provider",)
    SERVICE_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    service_provider: ServiceProvider
    def __init__(self, service_provider: _Optional[_Union[ServiceProvider, _Mapping]] = ...) -> None: ...

class ListServiceProvidersRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: str
    def __init__(self, realm: _Optional[str] = ...) -> None: ...

class ListServiceProvidersResponse(_message.Message):
    __slots__ = ("service_providers",)
    SERVICE_PROVIDERS_FIELD_NUMBER: _ClassVar[int]
    service_providers: _containers.RepeatedCompositeFieldContainer[ServiceProvider]
    def __init__(self, service_providers: _Optional[_Iterable[_Union[ServiceProvider, _Mapping]]] = ...) -> None: ...

class GetServiceProviderRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class GetServiceProviderResponse(_message.Message):
    __slots__ = ("service_provider",)
    SERVICE_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    service_provider: ServiceProvider
    def __init__(self, service_provider: _Optional[_Union[ServiceProvider, _Mapping]] = ...) -> None: ...

class UpdateServiceProviderRequest(_message.Message):
    __slots__ = ("realm", "id", "service_provider")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    service_provider: ServiceProviderInput
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ..., service_provider: _Optional[_Union[ServiceProviderInput, _Mapping]] = ...) -> None: ...

class UpdateServiceProviderResponse(_message.Message):
    __slots__ = ("service_provider",)
    SERVICE_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    service_provider: ServiceProvider
    def __init__(self, service_provider: _Optional[_Union[ServiceProvider, _Mapping]] = ...) -> None: ...

class DeleteServiceProviderRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class DeleteServiceProviderResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
