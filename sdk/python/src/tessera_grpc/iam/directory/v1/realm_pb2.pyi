import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Realm(_message.Message):
    __slots__ = ("id", "name", "display_name", "enabled", "access_token_lifespan", "refresh_token_lifespan", "offline_token_lifespan", "smtp_host", "smtp_port", "smtp_user", "smtp_password", "smtp_from", "smtp_secure", "password_min_length", "password_require_uppercase", "password_require_lowercase", "password_require_digits", "password_require_special_chars", "password_history_count", "password_max_age_days", "brute_force_enabled", "max_login_failures", "lockout_duration", "failure_reset_time", "permanent_lockout_after", "registration_allowed", "require_email_verification", "mfa_required", "events_enabled", "events_expiration", "admin_events_enabled", "theme_name", "theme", "login_theme", "account_theme", "email_theme", "created_at", "updated_at", "rate_limit_per_ip", "rate_limit_per_client", "sso_session_max_lifespan", "reset_password_allowed", "require_pushed_authorization_requests", "browser_flow", "direct_grant_flow", "edit_username_allowed", "organizations_enabled", "web_authn_policy_passwordless_rp_entity_name", "web_authn_policy_passwordless_signature_algorithms", "web_authn_policy_passwordless_rp_id", "web_authn_policy_passwordless_attestation_conveyance_preference", "web_authn_policy_passwordless_authenticator_attachment", "web_authn_policy_passwordless_require_resident_key", "web_authn_policy_passwordless_user_verification_requirement", "web_authn_policy_passwordless_create_timeout", "web_authn_policy_passwordless_avoid_same_authenticator_register", "web_authn_policy_passwordless_acceptable_aaguids", "web_authn_policy_passwordless_extra_origins", "action_token_generated_by_admin_lifespan", "action_token_generated_by_user_lifespan", "internationalization_enabled", "supported_locales", "default_locale", "remember_me", "sso_session_idle_timeout_remember_me", "sso_session_max_lifespan_remember_me")
    class ThemeEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    OFFLINE_TOKEN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    SMTP_HOST_FIELD_NUMBER: _ClassVar[int]
    SMTP_PORT_FIELD_NUMBER: _ClassVar[int]
    SMTP_USER_FIELD_NUMBER: _ClassVar[int]
    SMTP_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    SMTP_FROM_FIELD_NUMBER: _ClassVar[int]
    SMTP_SECURE_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_MIN_LENGTH_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_REQUIRE_UPPERCASE_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_REQUIRE_LOWERCASE_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_REQUIRE_DIGITS_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_REQUIRE_SPECIAL_CHARS_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_HISTORY_COUNT_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_MAX_AGE_DAYS_FIELD_NUMBER: _ClassVar[int]
    BRUTE_FORCE_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MAX_LOGIN_FAILURES_FIELD_NUMBER: _ClassVar[int]
    LOCKOUT_DURATION_FIELD_NUMBER: _ClassVar[int]
    FAILURE_RESET_TIME_FIELD_NUMBER: _ClassVar[int]
    PERMANENT_LOCKOUT_AFTER_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_EMAIL_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    EVENTS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENTS_EXPIRATION_FIELD_NUMBER: _ClassVar[int]
    ADMIN_EVENTS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    THEME_NAME_FIELD_NUMBER: _ClassVar[int]
    THEME_FIELD_NUMBER: _ClassVar[int]
    LOGIN_THEME_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_THEME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_THEME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_PER_IP_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_PER_CLIENT_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_MAX_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    RESET_PASSWORD_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_PUSHED_AUTHORIZATION_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    BROWSER_FLOW_FIELD_NUMBER: _ClassVar[int]
    DIRECT_GRANT_FLOW_FIELD_NUMBER: _ClassVar[int]
    EDIT_USERNAME_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATIONS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_RP_ENTITY_NAME_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_SIGNATURE_ALGORITHMS_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_RP_ID_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_ATTESTATION_CONVEYANCE_PREFERENCE_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_AUTHENTICATOR_ATTACHMENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_REQUIRE_RESIDENT_KEY_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_USER_VERIFICATION_REQUIREMENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_CREATE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_AVOID_SAME_AUTHENTICATOR_REGISTER_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_ACCEPTABLE_AAGUIDS_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_EXTRA_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    ACTION_TOKEN_GENERATED_BY_ADMIN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    ACTION_TOKEN_GENERATED_BY_USER_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    INTERNATIONALIZATION_ENABLED_FIELD_NUMBER: _ClassVar[int]
    SUPPORTED_LOCALES_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_IDLE_TIMEOUT_REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_MAX_LIFESPAN_REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    display_name: str
    enabled: bool
    access_token_lifespan: int
    refresh_token_lifespan: int
    offline_token_lifespan: int
    smtp_host: str
    smtp_port: int
    smtp_user: str
    smtp_password: str
    smtp_from: str
    smtp_secure: bool
    password_min_length: int
    password_require_uppercase: bool
    password_require_lowercase: bool
    password_require_digits: bool
    password_require_special_chars: bool
    password_history_count: int
    password_max_age_days: int
    brute_force_enabled: bool
    max_login_failures: int
    lockout_duration: int
    failure_reset_time: int
    permanent_lockout_after: int
    registration_allowed: bool
    require_email_verification: bool
    mfa_required: bool
    events_enabled: bool
    events_expiration: int
    admin_events_enabled: bool
    theme_name: str
    theme: _containers.ScalarMap[str, str]
    login_theme: str
    account_theme: str
    email_theme: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    rate_limit_per_ip: int
    rate_limit_per_client: int
    sso_session_max_lifespan: int
    reset_password_allowed: bool
    require_pushed_authorization_requests: bool
    browser_flow: str
    direct_grant_flow: str
    edit_username_allowed: bool
    organizations_enabled: bool
    web_authn_policy_passwordless_rp_entity_name: str
    web_authn_policy_passwordless_signature_algorithms: _containers.RepeatedScalarFieldContainer[str]
    web_authn_policy_passwordless_rp_id: str
    web_authn_policy_passwordless_attestation_conveyance_preference: str
    web_authn_policy_passwordless_authenticator_attachment: str
    web_authn_policy_passwordless_require_resident_key: str
    web_authn_policy_passwordless_user_verification_requirement: str
    web_authn_policy_passwordless_create_timeout: int
    web_authn_policy_passwordless_avoid_same_authenticator_register: bool
    web_authn_policy_passwordless_acceptable_aaguids: _containers.RepeatedScalarFieldContainer[str]
    web_authn_policy_passwordless_extra_origins: _containers.RepeatedScalarFieldContainer[str]
    action_token_generated_by_admin_lifespan: int
    action_token_generated_by_user_lifespan: int
    internationalization_enabled: bool
    supported_locales: _containers.RepeatedScalarFieldContainer[str]
    default_locale: str
    remember_me: bool
    sso_session_idle_timeout_remember_me: int
    sso_session_max_lifespan_remember_me: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., display_name: _Optional[str] = ..., enabled: _Optional[bool] = ..., access_token_lifespan: _Optional[int] = ..., refresh_token_lifespan: _Optional[int] = ..., offline_token_lifespan: _Optional[int] = ..., smtp_host: _Optional[str] = ..., smtp_port: _Optional[int] = ..., smtp_user: _Optional[str] = ..., smtp_password: _Optional[str] = ..., smtp_from: _Optional[str] = ..., smtp_secure: _Optional[bool] = ..., password_min_length: _Optional[int] = ..., password_require_uppercase: _Optional[bool] = ..., password_require_lowercase: _Optional[bool] = ..., password_require_digits: _Optional[bool] = ..., password_require_special_chars: _Optional[bool] = ..., password_history_count: _Optional[int] = ..., password_max_age_days: _Optional[int] = ..., brute_force_enabled: _Optional[bool] = ..., max_login_failures: _Optional[int] = ..., lockout_duration: _Optional[int] = ..., failure_reset_time: _Optional[int] = ..., permanent_lockout_after: _Optional[int] = ..., registration_allowed: _Optional[bool] = ..., require_email_verification: _Optional[bool] = ..., mfa_required: _Optional[bool] = ..., events_enabled: _Optional[bool] = ..., events_expiration: _Optional[int] = ..., admin_events_enabled: _Optional[bool] = ..., theme_name: _Optional[str] = ..., theme: _Optional[_Mapping[str, str]] = ..., login_theme: _Optional[str] = ..., account_theme: _Optional[str] = ..., email_theme: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., rate_limit_per_ip: _Optional[int] = ..., rate_limit_per_client: _Optional[int] = ..., sso_session_max_lifespan: _Optional[int] = ..., reset_password_allowed: _Optional[bool] = ..., require_pushed_authorization_requests: _Optional[bool] = ..., browser_flow: _Optional[str] = ..., direct_grant_flow: _Optional[str] = ..., edit_username_allowed: _Optional[bool] = ..., organizations_enabled: _Optional[bool] = ..., web_authn_policy_passwordless_rp_entity_name: _Optional[str] = ..., web_authn_policy_passwordless_signature_algorithms: _Optional[_Iterable[str]] = ..., web_authn_policy_passwordless_rp_id: _Optional[str] = ..., web_authn_policy_passwordless_attestation_conveyance_preference: _Optional[str] = ..., web_authn_policy_passwordless_authenticator_attachment: _Optional[str] = ..., web_authn_policy_passwordless_require_resident_key: _Optional[str] = ..., web_authn_policy_passwordless_user_verification_requirement: _Optional[str] = ..., web_authn_policy_passwordless_create_timeout: _Optional[int] = ..., web_authn_policy_passwordless_avoid_same_authenticator_register: _Optional[bool] = ..., web_authn_policy_passwordless_acceptable_aaguids: _Optional[_Iterable[str]] = ..., web_authn_policy_passwordless_extra_origins: _Optional[_Iterable[str]] = ..., action_token_generated_by_admin_lifespan: _Optional[int] = ..., action_token_generated_by_user_lifespan: _Optional[int] = ..., internationalization_enabled: _Optional[bool] = ..., supported_locales: _Optional[_Iterable[str]] = ..., default_locale: _Optional[str] = ..., remember_me: _Optional[bool] = ..., sso_session_idle_timeout_remember_me: _Optional[int] = ..., sso_session_max_lifespan_remember_me: _Optional[int] = ...) -> None: ...

class RealmInput(_message.Message):
    __slots__ = ("name", "display_name", "enabled", "access_token_lifespan", "refresh_token_lifespan", "offline_token_lifespan", "smtp_host", "smtp_port", "smtp_user", "smtp_password", "smtp_from", "smtp_secure", "password_min_length", "password_require_uppercase", "password_require_lowercase", "password_require_digits", "password_require_special_chars", "password_history_count", "password_max_age_days", "brute_force_enabled", "max_login_failures", "lockout_duration", "failure_reset_time", "permanent_lockout_after", "registration_allowed", "require_email_verification", "mfa_required", "events_enabled", "events_expiration", "admin_events_enabled", "theme_name", "theme", "login_theme", "account_theme", "email_theme", "rate_limit_per_ip", "rate_limit_per_client", "sso_session_max_lifespan", "reset_password_allowed", "require_pushed_authorization_requests", "browser_flow", "direct_grant_flow", "edit_username_allowed", "organizations_enabled", "web_authn_policy_passwordless_rp_entity_name", "web_authn_policy_passwordless_signature_algorithms", "web_authn_policy_passwordless_signature_algorithms_present", "web_authn_policy_passwordless_rp_id", "web_authn_policy_passwordless_attestation_conveyance_preference", "web_authn_policy_passwordless_authenticator_attachment", "web_authn_policy_passwordless_require_resident_key", "web_authn_policy_passwordless_user_verification_requirement", "web_authn_policy_passwordless_create_timeout", "web_authn_policy_passwordless_avoid_same_authenticator_register", "web_authn_policy_passwordless_acceptable_aaguids", "web_authn_policy_passwordless_acceptable_aaguids_present", "web_authn_policy_passwordless_extra_origins", "web_authn_policy_passwordless_extra_origins_present", "action_token_generated_by_admin_lifespan", "action_token_generated_by_user_lifespan", "internationalization_enabled", "supported_locales", "default_locale", "remember_me", "sso_session_idle_timeout_remember_me", "sso_session_max_lifespan_remember_me")
    class ThemeEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    OFFLINE_TOKEN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    SMTP_HOST_FIELD_NUMBER: _ClassVar[int]
    SMTP_PORT_FIELD_NUMBER: _ClassVar[int]
    SMTP_USER_FIELD_NUMBER: _ClassVar[int]
    SMTP_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    SMTP_FROM_FIELD_NUMBER: _ClassVar[int]
    SMTP_SECURE_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_MIN_LENGTH_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_REQUIRE_UPPERCASE_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_REQUIRE_LOWERCASE_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_REQUIRE_DIGITS_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_REQUIRE_SPECIAL_CHARS_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_HISTORY_COUNT_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_MAX_AGE_DAYS_FIELD_NUMBER: _ClassVar[int]
    BRUTE_FORCE_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MAX_LOGIN_FAILURES_FIELD_NUMBER: _ClassVar[int]
    LOCKOUT_DURATION_FIELD_NUMBER: _ClassVar[int]
    FAILURE_RESET_TIME_FIELD_NUMBER: _ClassVar[int]
    PERMANENT_LOCKOUT_AFTER_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_EMAIL_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    EVENTS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENTS_EXPIRATION_FIELD_NUMBER: _ClassVar[int]
    ADMIN_EVENTS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    THEME_NAME_FIELD_NUMBER: _ClassVar[int]
    THEME_FIELD_NUMBER: _ClassVar[int]
    LOGIN_THEME_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_THEME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_THEME_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_PER_IP_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_PER_CLIENT_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_MAX_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    RESET_PASSWORD_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_PUSHED_AUTHORIZATION_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    BROWSER_FLOW_FIELD_NUMBER: _ClassVar[int]
    DIRECT_GRANT_FLOW_FIELD_NUMBER: _ClassVar[int]
    EDIT_USERNAME_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATIONS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_RP_ENTITY_NAME_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_SIGNATURE_ALGORITHMS_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_SIGNATURE_ALGORITHMS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_RP_ID_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_ATTESTATION_CONVEYANCE_PREFERENCE_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_AUTHENTICATOR_ATTACHMENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_REQUIRE_RESIDENT_KEY_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_USER_VERIFICATION_REQUIREMENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_CREATE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_AVOID_SAME_AUTHENTICATOR_REGISTER_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_ACCEPTABLE_AAGUIDS_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_ACCEPTABLE_AAGUIDS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_EXTRA_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_EXTRA_ORIGINS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    ACTION_TOKEN_GENERATED_BY_ADMIN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    ACTION_TOKEN_GENERATED_BY_USER_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    INTERNATIONALIZATION_ENABLED_FIELD_NUMBER: _ClassVar[int]
    SUPPORTED_LOCALES_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_IDLE_TIMEOUT_REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_MAX_LIFESPAN_REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    name: str
    display_name: str
    enabled: bool
    access_token_lifespan: int
    refresh_token_lifespan: int
    offline_token_lifespan: int
    smtp_host: str
    smtp_port: int
    smtp_user: str
    smtp_password: str
    smtp_from: str
    smtp_secure: bool
    password_min_length: int
    password_require_uppercase: bool
    password_require_lowercase: bool
    password_require_digits: bool
    password_require_special_chars: bool
    password_history_count: int
    password_max_age_days: int
    brute_force_enabled: bool
    max_login_failures: int
    lockout_duration: int
    failure_reset_time: int
    permanent_lockout_after: int
    registration_allowed: bool
    require_email_verification: bool
    mfa_required: bool
    events_enabled: bool
    events_expiration: int
    admin_events_enabled: bool
    theme_name: str
    theme: _containers.ScalarMap[str, str]
    login_theme: str
    account_theme: str
    email_theme: str
    rate_limit_per_ip: int
    rate_limit_per_client: int
    sso_session_max_lifespan: int
    reset_password_allowed: bool
    require_pushed_authorization_requests: bool
    browser_flow: str
    direct_grant_flow: str
    edit_username_allowed: bool
    organizations_enabled: bool
    web_authn_policy_passwordless_rp_entity_name: str
    web_authn_policy_passwordless_signature_algorithms: _containers.RepeatedScalarFieldContainer[str]
    web_authn_policy_passwordless_signature_algorithms_present: bool
    web_authn_policy_passwordless_rp_id: str
    web_authn_policy_passwordless_attestation_conveyance_preference: str
    web_authn_policy_passwordless_authenticator_attachment: str
    web_authn_policy_passwordless_require_resident_key: str
    web_authn_policy_passwordless_user_verification_requirement: str
    web_authn_policy_passwordless_create_timeout: int
    web_authn_policy_passwordless_avoid_same_authenticator_register: bool
    web_authn_policy_passwordless_acceptable_aaguids: _containers.RepeatedScalarFieldContainer[str]
    web_authn_policy_passwordless_acceptable_aaguids_present: bool
    web_authn_policy_passwordless_extra_origins: _containers.RepeatedScalarFieldContainer[str]
    web_authn_policy_passwordless_extra_origins_present: bool
    action_token_generated_by_admin_lifespan: int
    action_token_generated_by_user_lifespan: int
    internationalization_enabled: bool
    supported_locales: _containers.RepeatedScalarFieldContainer[str]
    default_locale: str
    remember_me: bool
    sso_session_idle_timeout_remember_me: int
    sso_session_max_lifespan_remember_me: int
    def __init__(self, name: _Optional[str] = ..., display_name: _Optional[str] = ..., enabled: _Optional[bool] = ..., access_token_lifespan: _Optional[int] = ..., refresh_token_lifespan: _Optional[int] = ..., offline_token_lifespan: _Optional[int] = ..., smtp_host: _Optional[str] = ..., smtp_port: _Optional[int] = ..., smtp_user: _Optional[str] = ..., smtp_password: _Optional[str] = ..., smtp_from: _Optional[str] = ..., smtp_secure: _Optional[bool] = ..., password_min_length: _Optional[int] = ..., password_require_uppercase: _Optional[bool] = ..., password_require_lowercase: _Optional[bool] = ..., password_require_digits: _Optional[bool] = ..., password_require_special_chars: _Optional[bool] = ..., password_history_count: _Optional[int] = ..., password_max_age_days: _Optional[int] = ..., brute_force_enabled: _Optional[bool] = ..., max_login_failures: _Optional[int] = ..., lockout_duration: _Optional[int] = ..., failure_reset_time: _Optional[int] = ..., permanent_lockout_after: _Optional[int] = ..., registration_allowed: _Optional[bool] = ..., require_email_verification: _Optional[bool] = ..., mfa_required: _Optional[bool] = ..., events_enabled: _Optional[bool] = ..., events_expiration: _Optional[int] = ..., admin_events_enabled: _Optional[bool] = ..., theme_name: _Optional[str] = ..., theme: _Optional[_Mapping[str, str]] = ..., login_theme: _Optional[str] = ..., account_theme: _Optional[str] = ..., email_theme: _Optional[str] = ..., rate_limit_per_ip: _Optional[int] = ..., rate_limit_per_client: _Optional[int] = ..., sso_session_max_lifespan: _Optional[int] = ..., reset_password_allowed: _Optional[bool] = ..., require_pushed_authorization_requests: _Optional[bool] = ..., browser_flow: _Optional[str] = ..., direct_grant_flow: _Optional[str] = ..., edit_username_allowed: _Optional[bool] = ..., organizations_enabled: _Optional[bool] = ..., web_authn_policy_passwordless_rp_entity_name: _Optional[str] = ..., web_authn_policy_passwordless_signature_algorithms: _Optional[_Iterable[str]] = ..., web_authn_policy_passwordless_signature_algorithms_present: _Optional[bool] = ..., web_authn_policy_passwordless_rp_id: _Optional[str] = ..., web_authn_policy_passwordless_attestation_conveyance_preference: _Optional[str] = ..., web_authn_policy_passwordless_authenticator_attachment: _Optional[str] = ..., web_authn_policy_passwordless_require_resident_key: _Optional[str] = ..., web_authn_policy_passwordless_user_verification_requirement: _Optional[str] = ..., web_authn_policy_passwordless_create_timeout: _Optional[int] = ..., web_authn_policy_passwordless_avoid_same_authenticator_register: _Optional[bool] = ..., web_authn_policy_passwordless_acceptable_aaguids: _Optional[_Iterable[str]] = ..., web_authn_policy_passwordless_acceptable_aaguids_present: _Optional[bool] = ..., web_authn_policy_passwordless_extra_origins: _Optional[_Iterable[str]] = ..., web_authn_policy_passwordless_extra_origins_present: _Optional[bool] = ..., action_token_generated_by_admin_lifespan: _Optional[int] = ..., action_token_generated_by_user_lifespan: _Optional[int] = ..., internationalization_enabled: _Optional[bool] = ..., supported_locales: _Optional[_Iterable[str]] = ..., default_locale: _Optional[str] = ..., remember_me: _Optional[bool] = ..., sso_session_idle_timeout_remember_me: _Optional[int] = ..., sso_session_max_lifespan_remember_me: _Optional[int] = ...) -> None: ...

class RealmUpdate(_message.Message):
    __slots__ = ("display_name", "enabled", "access_token_lifespan", "refresh_token_lifespan", "smtp_host", "smtp_port", "smtp_user", "smtp_password", "smtp_from", "registration_allowed", "mfa_required", "theme_name", "theme", "theme_present", "rate_limit_per_ip", "rate_limit_per_client", "sso_session_max_lifespan", "reset_password_allowed", "require_pushed_authorization_requests", "browser_flow", "direct_grant_flow", "edit_username_allowed", "organizations_enabled", "web_authn_policy_passwordless_rp_entity_name", "web_authn_policy_passwordless_signature_algorithms", "web_authn_policy_passwordless_signature_algorithms_present", "web_authn_policy_passwordless_rp_id", "web_authn_policy_passwordless_attestation_conveyance_preference", "web_authn_policy_passwordless_authenticator_attachment", "web_authn_policy_passwordless_require_resident_key", "web_authn_policy_passwordless_user_verification_requirement", "web_authn_policy_passwordless_create_timeout", "web_authn_policy_passwordless_avoid_same_authenticator_register", "web_authn_policy_passwordless_acceptable_aaguids", "web_authn_policy_passwordless_acceptable_aaguids_present", "web_authn_policy_passwordless_extra_origins", "web_authn_policy_passwordless_extra_origins_present", "action_token_generated_by_admin_lifespan", "action_token_generated_by_user_lifespan", "internationalization_enabled", "supported_locales", "supported_locales_present", "default_locale", "remember_me", "sso_session_idle_timeout_remember_me", "sso_session_max_lifespan_remember_me")
    class ThemeEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    SMTP_HOST_FIELD_NUMBER: _ClassVar[int]
    SMTP_PORT_FIELD_NUMBER: _ClassVar[int]
    SMTP_USER_FIELD_NUMBER: _ClassVar[int]
    SMTP_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    SMTP_FROM_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    THEME_NAME_FIELD_NUMBER: _ClassVar[int]
    THEME_FIELD_NUMBER: _ClassVar[int]
    THEME_PRESENT_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_PER_IP_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMIT_PER_CLIENT_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_MAX_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    RESET_PASSWORD_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_PUSHED_AUTHORIZATION_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    BROWSER_FLOW_FIELD_NUMBER: _ClassVar[int]
    DIRECT_GRANT_FLOW_FIELD_NUMBER: _ClassVar[int]
    EDIT_USERNAME_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATIONS_ENABLED_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_RP_ENTITY_NAME_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_SIGNATURE_ALGORITHMS_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_SIGNATURE_ALGORITHMS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_RP_ID_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_ATTESTATION_CONVEYANCE_PREFERENCE_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_AUTHENTICATOR_ATTACHMENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_REQUIRE_RESIDENT_KEY_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_USER_VERIFICATION_REQUIREMENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_CREATE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_AVOID_SAME_AUTHENTICATOR_REGISTER_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_ACCEPTABLE_AAGUIDS_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_ACCEPTABLE_AAGUIDS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_EXTRA_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    WEB_AUTHN_POLICY_PASSWORDLESS_EXTRA_ORIGINS_PRESENT_FIELD_NUMBER: _ClassVar[int]
    ACTION_TOKEN_GENERATED_BY_ADMIN_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    ACTION_TOKEN_GENERATED_BY_USER_LIFESPAN_FIELD_NUMBER: _ClassVar[int]
    INTERNATIONALIZATION_ENABLED_FIELD_NUMBER: _ClassVar[int]
    SUPPORTED_LOCALES_FIELD_NUMBER: _ClassVar[int]
    SUPPORTED_LOCALES_PRESENT_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_IDLE_TIMEOUT_REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    SSO_SESSION_MAX_LIFESPAN_REMEMBER_ME_FIELD_NUMBER: _ClassVar[int]
    display_name: str
    enabled: bool
    access_token_lifespan: int
    refresh_token_lifespan: int
    smtp_host: str
    smtp_port: int
    smtp_user: str
    smtp_password: str
    smtp_from: str
    registration_allowed: bool
    mfa_required: bool
    theme_name: str
    theme: _containers.ScalarMap[str, str]
    theme_present: bool
    rate_limit_per_ip: int
    rate_limit_per_client: int
    sso_session_max_lifespan: int
    reset_password_allowed: bool
    require_pushed_authorization_requests: bool
    browser_flow: str
    direct_grant_flow: str
    edit_username_allowed: bool
    organizations_enabled: bool
    web_authn_policy_passwordless_rp_entity_name: str
    web_authn_policy_passwordless_signature_algorithms: _containers.RepeatedScalarFieldContainer[str]
    web_authn_policy_passwordless_signature_algorithms_present: bool
    web_authn_policy_passwordless_rp_id: str
    web_authn_policy_passwordless_attestation_conveyance_preference: str
    web_authn_policy_passwordless_authenticator_attachment: str
    web_authn_policy_passwordless_require_resident_key: str
    web_authn_policy_passwordless_user_verification_requirement: str
    web_authn_policy_passwordless_create_timeout: int
    web_authn_policy_passwordless_avoid_same_authenticator_register: bool
    web_authn_policy_passwordless_acceptable_aaguids: _containers.RepeatedScalarFieldContainer[str]
    web_authn_policy_passwordless_acceptable_aaguids_present: bool
    web_authn_policy_passwordless_extra_origins: _containers.RepeatedScalarFieldContainer[str]
    web_authn_policy_passwordless_extra_origins_present: bool
    action_token_generated_by_admin_lifespan: int
    action_token_generated_by_user_lifespan: int
    internationalization_enabled: bool
    supported_locales: _containers.RepeatedScalarFieldContainer[str]
    supported_locales_present: bool
    default_locale: str
    remember_me: bool
    sso_session_idle_timeout_remember_me: int
    sso_session_max_lifespan_remember_me: int
    def __init__(self, display_name: _Optional[str] = ..., enabled: _Optional[bool] = ..., access_token_lifespan: _Optional[int] = ..., refresh_token_lifespan: _Optional[int] = ..., smtp_host: _Optional[str] = ..., smtp_port: _Optional[int] = ..., smtp_user: _Optional[str] = ..., smtp_password: _Optional[str] = ..., smtp_from: _Optional[str] = ..., registration_allowed: _Optional[bool] = ..., mfa_required: _Optional[bool] = ..., theme_name: _Optional[str] = ..., theme: _Optional[_Mapping[str, str]] = ..., theme_present: _Optional[bool] = ..., rate_limit_per_ip: _Optional[int] = ..., rate_limit_per_client: _Optional[int] = ..., sso_session_max_lifespan: _Optional[int] = ..., reset_password_allowed: _Optional[bool] = ..., require_pushed_authorization_requests: _Optional[bool] = ..., browser_flow: _Optional[str] = ..., direct_grant_flow: _Optional[str] = ..., edit_username_allowed: _Optional[bool] = ..., organizations_enabled: _Optional[bool] = ..., web_authn_policy_passwordless_rp_entity_name: _Optional[str] = ..., web_authn_policy_passwordless_signature_algorithms: _Optional[_Iterable[str]] = ..., web_authn_policy_passwordless_signature_algorithms_present: _Optional[bool] = ..., web_authn_policy_passwordless_rp_id: _Optional[str] = ..., web_authn_policy_passwordless_attestation_conveyance_preference: _Optional[str] = ..., web_authn_policy_passwordless_authenticator_attachment: _Optional[str] = ..., web_authn_policy_passwordless_require_resident_key: _Optional[str] = ..., web_authn_policy_passwordless_user_verification_requirement: _Optional[str] = ..., web_authn_policy_passwordless_create_timeout: _Optional[int] = ..., web_authn_policy_passwordless_avoid_same_authenticator_register: _Optional[bool] = ..., web_authn_policy_passwordless_acceptable_aaguids: _Optional[_Iterable[str]] = ..., web_authn_policy_passwordless_acceptable_aaguids_present: _Optional[bool] = ..., web_authn_policy_passwordless_extra_origins: _Optional[_Iterable[str]] = ..., web_authn_policy_passwordless_extra_origins_present: _Optional[bool] = ..., action_token_generated_by_admin_lifespan: _Optional[int] = ..., action_token_generated_by_user_lifespan: _Optional[int] = ..., internationalization_enabled: _Optional[bool] = ..., supported_locales: _Optional[_Iterable[str]] = ..., supported_locales_present: _Optional[bool] = ..., default_locale: _Optional[str] = ..., remember_me: _Optional[bool] = ..., sso_session_idle_timeout_remember_me: _Optional[int] = ..., sso_session_max_lifespan_remember_me: _Optional[int] = ...) -> None: ...

class CreateRealmRequest(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: RealmInput
    def __init__(self, realm: _Optional[_Union[RealmInput, _Mapping]] = ...) -> None: ...

class CreateRealmResponse(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: Realm
    def __init__(self, realm: _Optional[_Union[Realm, _Mapping]] = ...) -> None: ...

class ListRealmsRequest(_message.Message):
    __slots__ = ("paged", "search", "first", "max")
    PAGED_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    paged: bool
    search: str
    first: int
    max: int
    def __init__(self, paged: _Optional[bool] = ..., search: _Optional[str] = ..., first: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ListRealmsResponse(_message.Message):
    __slots__ = ("realms",)
    REALMS_FIELD_NUMBER: _ClassVar[int]
    realms: _containers.RepeatedCompositeFieldContainer[Realm]
    def __init__(self, realms: _Optional[_Iterable[_Union[Realm, _Mapping]]] = ...) -> None: ...

class GetRealmRequest(_message.Message):
    __slots__ = ("name", "allow_cached")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ALLOW_CACHED_FIELD_NUMBER: _ClassVar[int]
    name: str
    allow_cached: bool
    def __init__(self, name: _Optional[str] = ..., allow_cached: _Optional[bool] = ...) -> None: ...

class GetRealmResponse(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: Realm
    def __init__(self, realm: _Optional[_Union[Realm, _Mapping]] = ...) -> None: ...

class UpdateRealmRequest(_message.Message):
    __slots__ = ("name", "update")
    NAME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    name: str
    update: RealmUpdate
    def __init__(self, name: _Optional[str] = ..., update: _Optional[_Union[RealmUpdate, _Mapping]] = ...) -> None: ...

class UpdateRealmResponse(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: Realm
    def __init__(self, realm: _Optional[_Union[Realm, _Mapping]] = ...) -> None: ...

class DeleteRealmRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class DeleteRealmResponse(_message.Message):
    __slots__ = ("realm",)
    REALM_FIELD_NUMBER: _ClassVar[int]
    realm: Realm
    def __init__(self, realm: _Optional[_Union[Realm, _Mapping]] = ...) -> None: ...

class ListThemesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListThemesResponse(_message.Message):
    __slots__ = ("themes",)
    THEMES_FIELD_NUMBER: _ClassVar[int]
    themes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, themes: _Optional[_Iterable[str]] = ...) -> None: ...

class RealmDeleted(_message.Message):
    __slots__ = ("realm_id", "realm_name", "deleted_at")
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_NAME_FIELD_NUMBER: _ClassVar[int]
    DELETED_AT_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    realm_name: str
    deleted_at: _timestamp_pb2.Timestamp
    def __init__(self, realm_id: _Optional[str] = ..., realm_name: _Optional[str] = ..., deleted_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class RealmUpdated(_message.Message):
    __slots__ = ("realm_id", "realm_name")
    REALM_ID_FIELD_NUMBER: _ClassVar[int]
    REALM_NAME_FIELD_NUMBER: _ClassVar[int]
    realm_id: str
    realm_name: str
    def __init__(self, realm_id: _Optional[str] = ..., realm_name: _Optional[str] = ...) -> None: ...
