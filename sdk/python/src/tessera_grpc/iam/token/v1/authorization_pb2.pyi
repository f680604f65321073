from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class FlowStep(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FLOW_STEP_UNSPECIFIED: _ClassVar[FlowStep]
    FLOW_STEP_LOGIN: _ClassVar[FlowStep]
    FLOW_STEP_OTP: _ClassVar[FlowStep]
    FLOW_STEP_OTP_ENROLL: _ClassVar[FlowStep]
    FLOW_STEP_RECOVERY_CODES: _ClassVar[FlowStep]
    FLOW_STEP_UPDATE_PASSWORD: _ClassVar[FlowStep]
    FLOW_STEP_CONSENT: _ClassVar[FlowStep]
    FLOW_STEP_DEVICE_ENTER_CODE: _ClassVar[FlowStep]
    FLOW_STEP_DEVICE_DONE: _ClassVar[FlowStep]
    FLOW_STEP_LOGOUT_CONFIRM: _ClassVar[FlowStep]
    FLOW_STEP_LOGGED_OUT: _ClassVar[FlowStep]
    FLOW_STEP_REGISTER: _ClassVar[FlowStep]
    FLOW_STEP_VERIFY_EMAIL: _ClassVar[FlowStep]
    FLOW_STEP_EMAIL_VERIFIED: _ClassVar[FlowStep]
    FLOW_STEP_RESET_CREDENTIALS: _ClassVar[FlowStep]
    FLOW_STEP_RESET_EMAIL_SENT: _ClassVar[FlowStep]
    FLOW_STEP_RESET_PASSWORD: _ClassVar[FlowStep]
    FLOW_STEP_PASSWORD_RESET_DONE: _ClassVar[FlowStep]
    FLOW_STEP_ACCOUNT_UPDATED: _ClassVar[FlowStep]
    FLOW_STEP_PASSKEY: _ClassVar[FlowStep]
    FLOW_STEP_PASSKEY_REGISTER: _ClassVar[FlowStep]
    FLOW_STEP_PLUGIN_CHALLENGE: _ClassVar[FlowStep]
    FLOW_STEP_TERMS: _ClassVar[FlowStep]
    FLOW_STEP_UPDATE_PROFILE: _ClassVar[FlowStep]
FLOW_STEP_UNSPECIFIED: FlowStep
FLOW_STEP_LOGIN: FlowStep
FLOW_STEP_OTP: FlowStep
FLOW_STEP_OTP_ENROLL: FlowStep
FLOW_STEP_RECOVERY_CODES: FlowStep
FLOW_STEP_UPDATE_PASSWORD: FlowStep
FLOW_STEP_CONSENT: FlowStep
FLOW_STEP_DEVICE_ENTER_CODE: FlowStep
FLOW_STEP_DEVICE_DONE: FlowStep
FLOW_STEP_LOGOUT_CONFIRM: FlowStep
FLOW_STEP_LOGGED_OUT: FlowStep
FLOW_STEP_REGISTER: FlowStep
FLOW_STEP_VERIFY_EMAIL: FlowStep
FLOW_STEP_EMAIL_VERIFIED: FlowStep
FLOW_STEP_RESET_CREDENTIALS: FlowStep
FLOW_STEP_RESET_EMAIL_SENT: FlowStep
FLOW_STEP_RESET_PASSWORD: FlowStep
FLOW_STEP_PASSWORD_RESET_DONE: FlowStep
FLOW_STEP_ACCOUNT_UPDATED: FlowStep
FLOW_STEP_PASSKEY: FlowStep
FLOW_STEP_PASSKEY_REGISTER: FlowStep
FLOW_STEP_PLUGIN_CHALLENGE: FlowStep
FLOW_STEP_TERMS: FlowStep
FLOW_STEP_UPDATE_PROFILE: FlowStep

class SubmitPluginStepRequest(_message.Message):
    __slots__ = ("context", "fields")
    class FieldsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    fields: _containers.ScalarMap[str, str]
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., fields: _Optional[_Mapping[str, str]] = ...) -> None: ...

class SubmitPluginStepResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class BeginPasskeyLoginRequest(_message.Message):
    __slots__ = ("context",)
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ...) -> None: ...

class BeginPasskeyLoginResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class SubmitPasskeyRequest(_message.Message):
    __slots__ = ("context", "credential")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    credential: str
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., credential: _Optional[str] = ...) -> None: ...

class SubmitPasskeyResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class SubmitPasskeyRegistrationRequest(_message.Message):
    __slots__ = ("context", "credential", "label")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    credential: str
    label: str
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., credential: _Optional[str] = ..., label: _Optional[str] = ...) -> None: ...

class SubmitPasskeyRegistrationResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class FlowContext(_message.Message):
    __slots__ = ("realm", "transaction_id", "csrf_token", "browser_id", "sso_cookie", "ip_address", "base_url")
    REALM_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_ID_FIELD_NUMBER: _ClassVar[int]
    CSRF_TOKEN_FIELD_NUMBER: _ClassVar[int]
    BROWSER_ID_FIELD_NUMBER: _ClassVar[int]
    SSO_COOKIE_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    realm: str
    transaction_id: str
    csrf_token: str
    browser_id: str
    sso_cookie: str
    ip_address: str
    base_url: str
    def __init__(self, realm: _Optional[str] = ..., transaction_id: _Optional[str] = ..., csrf_token: _Optional[str] = ..., browser_id: _Optional[str] = ..., sso_cookie: _Optional[str] = ..., ip_address: _Optional[str] = ..., base_url: _Optional[str] = ...) -> None: ...

class BeginAuthorizationRequest(_message.Message):
    __slots__ = ("context", "params")
    class ParamsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    PARAMS_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    params: _containers.ScalarMap[str, str]
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., params: _Optional[_Mapping[str, str]] = ...) -> None: ...

class SubmitCredentialsRequest(_message.Message):
    __slots__ = ("context", "username", "password", "remember_me")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    username: str
    password: str
    remember_me: bool
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., username: _Optional[str] = ..., password: _Optional[str] = ..., remember_me: _Optional[bool] = ...) -> None: ...

class SubmitOtpRequest(_message.Message):
    __slots__ = ("context", "code")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    code: str
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., code: _Optional[str] = ...) -> None: ...

class ConfirmOtpEnrollmentRequest(_message.Message):
    __slots__ = ("context", "code")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    code: str
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., code: _Optional[str] = ...) -> None: ...

class SubmitNewPasswordRequest(_message.Message):
    __slots__ = ("context", "new_password", "confirmation")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    CONFIRMATION_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    new_password: str
    confirmation: str
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., new_password: _Optional[str] = ..., confirmation: _Optional[str] = ...) -> None: ...

class SubmitTermsRequest(_message.Message):
    __slots__ = ("context", "accept")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    accept: bool
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., accept: _Optional[bool] = ...) -> None: ...

class SubmitTermsResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class SubmitProfileRequest(_message.Message):
    __slots__ = ("context", "username", "email", "first_name", "last_name")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    username: str
    email: str
    first_name: str
    last_name: str
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., username: _Optional[str] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ...) -> None: ...

class SubmitProfileResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class SubmitConsentRequest(_message.Message):
    __slots__ = ("context", "approve")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    APPROVE_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    approve: bool
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., approve: _Optional[bool] = ...) -> None: ...

class ContinueRequest(_message.Message):
    __slots__ = ("context",)
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ...) -> None: ...

class ResolveSsoCookieRequest(_message.Message):
    __slots__ = ("realm", "sso_cookie")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SSO_COOKIE_FIELD_NUMBER: _ClassVar[int]
    realm: str
    sso_cookie: str
    def __init__(self, realm: _Optional[str] = ..., sso_cookie: _Optional[str] = ...) -> None: ...

class ResolveSsoCookieResponse(_message.Message):
    __slots__ = ("found", "session_id", "user_id", "username", "auth_time_ms", "client_ids")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    AUTH_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    CLIENT_IDS_FIELD_NUMBER: _ClassVar[int]
    found: bool
    session_id: str
    user_id: str
    username: str
    auth_time_ms: int
    client_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, found: _Optional[bool] = ..., session_id: _Optional[str] = ..., user_id: _Optional[str] = ..., username: _Optional[str] = ..., auth_time_ms: _Optional[int] = ..., client_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class BeginDeviceVerificationRequest(_message.Message):
    __slots__ = ("context", "user_code")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    USER_CODE_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    user_code: str
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., user_code: _Optional[str] = ...) -> None: ...

class BeginLogoutRequest(_message.Message):
    __slots__ = ("context", "id_token_hint", "post_logout_redirect_uri", "state", "client_id")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    ID_TOKEN_HINT_FIELD_NUMBER: _ClassVar[int]
    POST_LOGOUT_REDIRECT_URI_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    id_token_hint: str
    post_logout_redirect_uri: str
    state: str
    client_id: str
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., id_token_hint: _Optional[str] = ..., post_logout_redirect_uri: _Optional[str] = ..., state: _Optional[str] = ..., client_id: _Optional[str] = ...) -> None: ...

class ConfirmLogoutRequest(_message.Message):
    __slots__ = ("context", "confirm")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    confirm: bool
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., confirm: _Optional[bool] = ...) -> None: ...

class FlowPage(_message.Message):
    __slots__ = ("step", "transaction_id", "csrf_token", "client_id", "client_name", "username", "message", "scopes", "otp_secret", "otpauth_uri", "recovery_codes", "approved", "user_code", "consent_scopes", "emailed_code", "messages", "email", "first_name", "last_name", "reset_key", "passkey_options", "passkey_second_factor", "plugin_title", "plugin_fields", "idp_hint", "back_uri", "ui_locales", "user_locale", "username_editable")
    STEP_FIELD_NUMBER: _ClassVar[int]
    TRANSACTION_ID_FIELD_NUMBER: _ClassVar[int]
    CSRF_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_NAME_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    OTP_SECRET_FIELD_NUMBER: _ClassVar[int]
    OTPAUTH_URI_FIELD_NUMBER: _ClassVar[int]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    APPROVED_FIELD_NUMBER: _ClassVar[int]
    USER_CODE_FIELD_NUMBER: _ClassVar[int]
    CONSENT_SCOPES_FIELD_NUMBER: _ClassVar[int]
    EMAILED_CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    FIRST_NAME_FIELD_NUMBER: _ClassVar[int]
    LAST_NAME_FIELD_NUMBER: _ClassVar[int]
    RESET_KEY_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_SECOND_FACTOR_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_TITLE_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_FIELDS_FIELD_NUMBER: _ClassVar[int]
    IDP_HINT_FIELD_NUMBER: _ClassVar[int]
    BACK_URI_FIELD_NUMBER: _ClassVar[int]
    UI_LOCALES_FIELD_NUMBER: _ClassVar[int]
    USER_LOCALE_FIELD_NUMBER: _ClassVar[int]
    USERNAME_EDITABLE_FIELD_NUMBER: _ClassVar[int]
    step: FlowStep
    transaction_id: str
    csrf_token: str
    client_id: str
    client_name: str
    username: str
    message: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    otp_secret: str
    otpauth_uri: str
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    approved: bool
    user_code: str
    consent_scopes: _containers.RepeatedCompositeFieldContainer[ConsentScope]
    emailed_code: bool
    messages: _containers.RepeatedScalarFieldContainer[str]
    email: str
    first_name: str
    last_name: str
    reset_key: str
    passkey_options: str
    passkey_second_factor: bool
    plugin_title: str
    plugin_fields: _containers.RepeatedCompositeFieldContainer[PluginField]
    idp_hint: str
    back_uri: str
    ui_locales: str
    user_locale: str
    username_editable: bool
    def __init__(self, step: _Optional[_Union[FlowStep, str]] = ..., transaction_id: _Optional[str] = ..., csrf_token: _Optional[str] = ..., client_id: _Optional[str] = ..., client_name: _Optional[str] = ..., username: _Optional[str] = ..., message: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., otp_secret: _Optional[str] = ..., otpauth_uri: _Optional[str] = ..., recovery_codes: _Optional[_Iterable[str]] = ..., approved: _Optional[bool] = ..., user_code: _Optional[str] = ..., consent_scopes: _Optional[_Iterable[_Union[ConsentScope, _Mapping]]] = ..., emailed_code: _Optional[bool] = ..., messages: _Optional[_Iterable[str]] = ..., email: _Optional[str] = ..., first_name: _Optional[str] = ..., last_name: _Optional[str] = ..., reset_key: _Optional[str] = ..., passkey_options: _Optional[str] = ..., passkey_second_factor: _Optional[bool] = ..., plugin_title: _Optional[str] = ..., plugin_fields: _Optional[_Iterable[_Union[PluginField, _Mapping]]] = ..., idp_hint: _Optional[str] = ..., back_uri: _Optional[str] = ..., ui_locales: _Optional[str] = ..., user_locale: _Optional[str] = ..., username_editable: _Optional[bool] = ...) -> None: ...

class PluginField(_message.Message):
    __slots__ = ("name", "label", "type")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    name: str
    label: str
    type: str
    def __init__(self, name: _Optional[str] = ..., label: _Optional[str] = ..., type: _Optional[str] = ...) -> None: ...

class ConsentScope(_message.Message):
    __slots__ = ("name", "text")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    name: str
    text: str
    def __init__(self, name: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class ErrorPage(_message.Message):
    __slots__ = ("error", "description", "status", "retry_after_seconds")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RETRY_AFTER_SECONDS_FIELD_NUMBER: _ClassVar[int]
    error: str
    description: str
    status: int
    retry_after_seconds: int
    def __init__(self, error: _Optional[str] = ..., description: _Optional[str] = ..., status: _Optional[int] = ..., retry_after_seconds: _Optional[int] = ...) -> None: ...

class FlowResult(_message.Message):
    __slots__ = ("page", "redirect", "error", "saml_complete", "form_post", "set_sso_cookie", "sso_cookie_max_age", "clear_sso_cookie", "form_action_origin", "remember_me_username")
    PAGE_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SAML_COMPLETE_FIELD_NUMBER: _ClassVar[int]
    FORM_POST_FIELD_NUMBER: _ClassVar[int]
    SET_SSO_COOKIE_FIELD_NUMBER: _ClassVar[int]
    SSO_COOKIE_MAX_AGE_FIELD_NUMBER: _ClassVar[int]
    CLEAR_SSO_COOKIE_FIELD_NUMBER: _ClassVar[int]
    FORM_ACTION_ORIGIN_FIELD_NUMBER: _ClassVar[int]
    REMEMBER_ME_USERNAME_FIELD_NUMBER: _ClassVar[int]
    page: FlowPage
    redirect: str
    error: ErrorPage
    saml_complete: SamlComplete
    form_post: FormPost
    set_sso_cookie: str
    sso_cookie_max_age: int
    clear_sso_cookie: bool
    form_action_origin: str
    remember_me_username: str
    def __init__(self, page: _Optional[_Union[FlowPage, _Mapping]] = ..., redirect: _Optional[str] = ..., error: _Optional[_Union[ErrorPage, _Mapping]] = ..., saml_complete: _Optional[_Union[SamlComplete, _Mapping]] = ..., form_post: _Optional[_Union[FormPost, _Mapping]] = ..., set_sso_cookie: _Optional[str] = ..., sso_cookie_max_age: _Optional[int] = ..., clear_sso_cookie: _Optional[bool] = ..., form_action_origin: _Optional[str] = ..., remember_me_username: _Optional[str] = ...) -> None: ...

class FormPost(_message.Message):
    __slots__ = ("action", "fields")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    action: str
    fields: _containers.RepeatedCompositeFieldContainer[FormField]
    def __init__(self, action: _Optional[str] = ..., fields: _Optional[_Iterable[_Union[FormField, _Mapping]]] = ...) -> None: ...

class FormField(_message.Message):
    __slots__ = ("name", "value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    value: str
    def __init__(self, name: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...

class SamlComplete(_message.Message):
    __slots__ = ("pending_id", "session_id", "user_id", "auth_time_ms")
    PENDING_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    AUTH_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    pending_id: str
    session_id: str
    user_id: str
    auth_time_ms: int
    def __init__(self, pending_id: _Optional[str] = ..., session_id: _Optional[str] = ..., user_id: _Optional[str] = ..., auth_time_ms: _Optional[int] = ...) -> None: ...

class BeginSamlLoginRequest(_message.Message):
    __slots__ = ("context", "pending_id", "sp_entity_id", "sp_name", "force_authn", "is_passive")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    PENDING_ID_FIELD_NUMBER: _ClassVar[int]
    SP_ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    SP_NAME_FIELD_NUMBER: _ClassVar[int]
    FORCE_AUTHN_FIELD_NUMBER: _ClassVar[int]
    IS_PASSIVE_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    pending_id: str
    sp_entity_id: str
    sp_name: str
    force_authn: bool
    is_passive: bool
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., pending_id: _Optional[str] = ..., sp_entity_id: _Optional[str] = ..., sp_name: _Optional[str] = ..., force_authn: _Optional[bool] = ..., is_passive: _Optional[bool] = ...) -> None: ...

class BeginSamlLoginResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class EndSsoSessionRequest(_message.Message):
    __slots__ = ("realm", "session_id", "reason", "sp_entity_id", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SP_ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    session_id: str
    reason: str
    sp_entity_id: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., session_id: _Optional[str] = ..., reason: _Optional[str] = ..., sp_entity_id: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class EndSsoSessionResponse(_message.Message):
    __slots__ = ("ended", "user_id")
    ENDED_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    ended: bool
    user_id: str
    def __init__(self, ended: _Optional[bool] = ..., user_id: _Optional[str] = ...) -> None: ...

class BeginAuthorizationResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class SubmitCredentialsResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class SubmitOtpResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class ConfirmOtpEnrollmentResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class SubmitNewPasswordResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class SubmitConsentResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class ContinueResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class BeginDeviceVerificationResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class BeginLogoutResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class ConfirmLogoutResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ...) -> None: ...

class CompleteBrokeredLoginRequest(_message.Message):
    __slots__ = ("context", "user_id", "identity_provider")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    context: FlowContext
    user_id: str
    identity_provider: str
    def __init__(self, context: _Optional[_Union[FlowContext, _Mapping]] = ..., user_id: _Optional[str] = ..., identity_provider: _Optional[str] = ...) -> None: ...

class CompleteBrokeredLoginResponse(_message.Message):
    __slots__ = ("result", "saml_transaction")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SAML_TRANSACTION_FIELD_NUMBER: _ClassVar[int]
    result: FlowResult
    saml_transaction: bool
    def __init__(self, result: _Optional[_Union[FlowResult, _Mapping]] = ..., saml_transaction: _Optional[bool] = ...) -> None: ...

class ImpersonateRequest(_message.Message):
    __slots__ = ("realm", "user_id", "ip_address")
    REALM_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    realm: str
    user_id: str
    ip_address: str
    def __init__(self, realm: _Optional[str] = ..., user_id: _Optional[str] = ..., ip_address: _Optional[str] = ...) -> None: ...

class ImpersonateResponse(_message.Message):
    __slots__ = ("sso_cookie", "session_id")
    SSO_COOKIE_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    sso_cookie: str
    session_id: str
    def __init__(self, sso_cookie: _Optional[str] = ..., session_id: _Optional[str] = ...) -> None: ...
