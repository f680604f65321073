import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Webhook(_message.Message):
    __slots__ = ("id", "url", "event_types", "enabled", "headers", "created_at", "updated_at", "secret_grace_period_seconds", "previous_secret_expires_at")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    SECRET_GRACE_PERIOD_SECONDS_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    url: str
    event_types: _containers.RepeatedScalarFieldContainer[str]
    enabled: bool
    headers: _containers.ScalarMap[str, str]
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    secret_grace_period_seconds: int
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: _Optional[bool] = ..., headers: _Optional[_Mapping[str, str]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., secret_grace_period_seconds: _Optional[int] = ..., previous_secret_expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class EventTypes(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, values: _Optional[_Iterable[str]] = ...) -> None: ...

class Headers(_message.Message):
    __slots__ = ("values",)
    class ValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.ScalarMap[str, str]
    def __init__(self, values: _Optional[_Mapping[str, str]] = ...) -> None: ...

class WebhookInput(_message.Message):
    __slots__ = ("url", "event_types", "enabled", "headers", "secret_grace_period_seconds")
    URL_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    SECRET_GRACE_PERIOD_SECONDS_FIELD_NUMBER: _ClassVar[int]
    url: str
    event_types: EventTypes
    enabled: bool
    headers: Headers
    secret_grace_period_seconds: int
    def __init__(self, url: _Optional[str] = ..., event_types: _Optional[_Union[EventTypes, _Mapping]] = ..., enabled: _Optional[bool] = ..., headers: _Optional[_Union[Headers, _Mapping]] = ..., secret_grace_period_seconds: _Optional[int] = ...) -> None: ...

class CreateWebhookRequest(_message.Message):
    __slots__ = ("realm", "webhook")
    REALM_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_FIELD_NUMBER: _ClassVar[int]
    realm: str
    webhook: WebhookInput
    def __init__(self, realm: _Optional[str] = ..., webhook: _Optional[_Union[WebhookInput, _Mapping]] = ...) -> None: ...

class CreateWebhookResponse(_message.Message):
    __slots__ = ("webhook", "secret")
    WEBHOOK_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    webhook: Webhook
    secret: str
    def __init__(self, webhook: _Optional[_Union[Webhook, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class ListWebhooksRequest(_message.Message):
    __slots__ = ("realm", "first", "max")
    REALM_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    realm: str
    first: int
    max: int
    def __init__(self, realm: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ListWebhooksResponse(_message.Message):
    __slots__ = ("webhooks",)
    WEBHOOKS_FIELD_NUMBER: _ClassVar[int]
    webhooks: _containers.RepeatedCompositeFieldContainer[Webhook]
    def __init__(self, webhooks: _Optional[_Iterable[_Union[Webhook, _Mapping]]] = ...) -> None: ...

class GetWebhookRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class GetWebhookResponse(_message.Message):
    __slots__ = ("webhook",)
    WEBHOOK_FIELD_NUMBER: _ClassVar[int]
    webhook: Webhook
    def __init__(self, webhook: _Optional[_Union[Webhook, _Mapping]] = ...) -> None: ...

class UpdateWebhookRequest(_message.Message):
    __slots__ = ("realm", "id", "webhook")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    webhook: WebhookInput
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ..., webhook: _Optional[_Union[WebhookInput, _Mapping]] = ...) -> None: ...

class UpdateWebhookResponse(_message.Message):
    __slots__ = ("webhook",)
    WEBHOOK_FIELD_NUMBER: _ClassVar[int]
    webhook: Webhook
    def __init__(self, webhook: _Optional[_Union[Webhook, _Mapping]] = ...) -> None: ...

class DeleteWebhookRequest(_message.Message):
    __slots__ = ("realm", "id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class DeleteWebhookResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RotateWebhookSecretRequest(_message.Message):
    __slots__ = ("realm", "id", "grace_period_seconds")
    REALM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    GRACE_PERIOD_SECONDS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    id: str
    grace_period_seconds: int
    def __init__(self, realm: _Optional[str] = ..., id: _Optional[str] = ..., grace_period_seconds: _Optional[int] = ...) -> None: ...

class RotateWebhookSecretResponse(_message.Message):
    __slots__ = ("secret", "previous_secret_expires_at")
    SECRET_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    secret: str
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    def __init__(self, secret: _Optional[str] = ..., previous_secret_expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Delivery(_message.Message):
    __slots__ = ("id", "event_id", "event_type", "status", "attempts", "response_code", "last_attempt_at", "next_attempt_at", "created_at", "event_time", "last_error")
    ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_CODE_FIELD_NUMBER: _ClassVar[int]
    LAST_ATTEMPT_AT_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_AT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EVENT_TIME_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    id: str
    event_id: str
    event_type: str
    status: str
    attempts: int
    response_code: int
    last_attempt_at: _timestamp_pb2.Timestamp
    next_attempt_at: _timestamp_pb2.Timestamp
    created_at: _timestamp_pb2.Timestamp
    event_time: _timestamp_pb2.Timestamp
    last_error: str
    def __init__(self, id: _Optional[str] = ..., event_id: _Optional[str] = ..., event_type: _Optional[str] = ..., status: _Optional[str] = ..., attempts: _Optional[int] = ..., response_code: _Optional[int] = ..., last_attempt_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., next_attempt_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., event_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_error: _Optional[str] = ...) -> None: ...

class ListDeliveriesRequest(_message.Message):
    __slots__ = ("realm", "webhook_id", "status", "first", "max")
    REALM_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    realm: str
    webhook_id: str
    status: str
    first: int
    max: int
    def __init__(self, realm: _Optional[str] = ..., webhook_id: _Optional[str] = ..., status: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ListDeliveriesResponse(_message.Message):
    __slots__ = ("deliveries",)
    DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    deliveries: _containers.RepeatedCompositeFieldContainer[Delivery]
    def __init__(self, deliveries: _Optional[_Iterable[_Union[Delivery, _Mapping]]] = ...) -> None: ...

class ReplayDeliveryRequest(_message.Message):
    __slots__ = ("realm", "webhook_id", "delivery_id")
    REALM_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    realm: str
    webhook_id: str
    delivery_id: str
    def __init__(self, realm: _Optional[str] = ..., webhook_id: _Optional[str] = ..., delivery_id: _Optional[str] = ...) -> None: ...

class ReplayDeliveryResponse(_message.Message):
    __slots__ = ("delivery",)
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    delivery: Delivery
    def __init__(self, delivery: _Optional[_Union[Delivery, _Mapping]] = ...) -> None: ...

class ReplayRangeRequest(_message.Message):
    __slots__ = ("realm", "webhook_id", "date_from", "date_to")
    REALM_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    DATE_FROM_FIELD_NUMBER: _ClassVar[int]
    DATE_TO_FIELD_NUMBER: _ClassVar[int]
    realm: str
    webhook_id: str
    date_from: _timestamp_pb2.Timestamp
    date_to: _timestamp_pb2.Timestamp
    def __init__(self, realm: _Optional[str] = ..., webhook_id: _Optional[str] = ..., date_from: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., date_to: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ReplayRangeResponse(_message.Message):
    __slots__ = ("queued",)
    QUEUED_FIELD_NUMBER: _ClassVar[int]
    queued: int
    def __init__(self, queued: _Optional[int] = ...) -> None: ...
