import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { RealmService } from "../../gen/iam/directory/v1/realm_pb.js";
import { RealmLocalizationService } from "../../gen/iam/directory/v1/realm_localization_pb.js";
import { AdminAccountService } from "../../gen/iam/directory/v1/admin_account_pb.js";
import { UserService } from "../../gen/iam/directory/v1/user_pb.js";
import { GroupService } from "../../gen/iam/directory/v1/group_pb.js";
import { OrganizationService } from "../../gen/iam/directory/v1/organization_pb.js";
import { UserSecurityService } from "../../gen/iam/directory/v1/user_security_pb.js";
import { PasskeyService } from "../../gen/iam/directory/v1/passkey_pb.js";
import { AuthenticationFlowService } from "../../gen/iam/directory/v1/authentication_flow_pb.js";
import { DirectoryService } from "../../gen/iam/directory/v1/directory_pb.js";
import { ClientService } from "../../gen/iam/directory/v1/client_pb.js";
import { ClientRegistrationService } from "../../gen/iam/directory/v1/client_registration_pb.js";
import { RoleService } from "../../gen/iam/directory/v1/role_pb.js";
import { ClientScopeService } from "../../gen/iam/directory/v1/client_scope_pb.js";
import { AuditService } from "../../gen/iam/audit/v1/audit_pb.js";
import { WebhookService } from "../../gen/iam/audit/v1/webhook_pb.js";
import { TokenService } from "../../gen/iam/token/v1/token_pb.js";
import { OAuthService } from "../../gen/iam/token/v1/oauth_pb.js";
import { SessionAdminService } from "../../gen/iam/token/v1/sessions_pb.js";
import { ScopeEvaluationService } from "../../gen/iam/token/v1/scope_evaluation_pb.js";
import { AccountService } from "../../gen/iam/token/v1/account_pb.js";
import { AuthenticationService } from "../../gen/iam/directory/v1/authentication_pb.js";
import { AuthorizationFlowService } from "../../gen/iam/token/v1/authorization_pb.js";
import { RegistrationFlowService } from "../../gen/iam/token/v1/registration_flow_pb.js";
import { ResetCredentialsFlowService } from "../../gen/iam/token/v1/reset_credentials_flow_pb.js";
import { SamlService } from "../../gen/iam/saml/v1/saml_pb.js";
import { ServiceProviderService } from "../../gen/iam/saml/v1/service_provider_pb.js";
import { IdpService } from "../../gen/iam/saml/v1/idp_pb.js";
import { SamlSsoService } from "../../gen/iam/saml/v1/sso_pb.js";
import { BrokerService } from "../../gen/iam/broker/v1/broker_pb.js";
import { IdentityProviderService } from "../../gen/iam/broker/v1/identity_provider_pb.js";
import { BrokerLoginService } from "../../gen/iam/broker/v1/broker_login_pb.js";
import { FederationService } from "../../gen/iam/federation/v1/federation_pb.js";
import { RealmTransferService } from "../../gen/iam/kit/v1/realm_transfer_pb.js";
import { RealmImportService } from "../../gen/iam/directory/v1/realm_import_pb.js";
import type { ServiceName } from "../../services/kit/src/module.js";

/** The services that own part of a realm's export (DESIGN 3), in the order an import writes them. */
export const REALM_PART_OWNERS = ["directory", "token", "saml", "broker", "federation", "audit"] as const;
export type RealmPartOwner = (typeof REALM_PART_OWNERS)[number];

/** The generated clients the gateway calls; it holds nothing else of the services. */
export interface RpcClients {
  realms: Client<typeof RealmService>;
  localization: Client<typeof RealmLocalizationService>;
  adminAccounts: Client<typeof AdminAccountService>;
  directory: Client<typeof DirectoryService>;
  users: Client<typeof UserService>;
  groups: Client<typeof GroupService>;
  organizations: Client<typeof OrganizationService>;
  userSecurity: Client<typeof UserSecurityService>;
  passkeys: Client<typeof PasskeyService>;
  authenticationFlows: Client<typeof AuthenticationFlowService>;
  clients: Client<typeof ClientService>;
  clientRegistrations: Client<typeof ClientRegistrationService>;
  roles: Client<typeof RoleService>;
  clientScopes: Client<typeof ClientScopeService>;
  audit: Client<typeof AuditService>;
  webhooks: Client<typeof WebhookService>;
  token: Client<typeof TokenService>;
  oauth: Client<typeof OAuthService>;
  sessions: Client<typeof SessionAdminService>;
  /** Keycloak's client scope evaluation: example tokens for a user and a scope. */
  scopeEvaluation: Client<typeof ScopeEvaluationService>;
  /** The account API's sessions and consents of the signed-in user. */
  account: Client<typeof AccountService>;
  /** The account API's TOTP enrolment (the directory's, as the login's required action uses it). */
  authentication: Client<typeof AuthenticationService>;
  authorizationFlow: Client<typeof AuthorizationFlowService>;
  registrationFlow: Client<typeof RegistrationFlowService>;
  resetCredentialsFlow: Client<typeof ResetCredentialsFlowService>;
  saml: Client<typeof SamlService>;
  samlServiceProviders: Client<typeof ServiceProviderService>;
  samlIdp: Client<typeof IdpService>;
  samlSso: Client<typeof SamlSsoService>;
  broker: Client<typeof BrokerService>;
  identityProviders: Client<typeof IdentityProviderService>;
  brokerLogin: Client<typeof BrokerLoginService>;
  federation: Client<typeof FederationService>;
  /** Each part owner's realm export and import (kit realm_transfer.proto). */
  realmParts: Record<RealmPartOwner, Client<typeof RealmTransferService>>;
  realmImport: Client<typeof RealmImportService>;
}

export function createRpcClients(t: Record<ServiceName, Transport>): RpcClients {
  return {
    realms: createClient(RealmService, t.directory),
    localization: createClient(RealmLocalizationService, t.directory),
    adminAccounts: createClient(AdminAccountService, t.directory),
    directory: createClient(DirectoryService, t.directory),
    users: createClient(UserService, t.directory),
    groups: createClient(GroupService, t.directory),
    organizations: createClient(OrganizationService, t.directory),
    userSecurity: createClient(UserSecurityService, t.directory),
    passkeys: createClient(PasskeyService, t.directory),
    authenticationFlows: createClient(AuthenticationFlowService, t.directory),
    clients: createClient(ClientService, t.directory),
    clientRegistrations: createClient(ClientRegistrationService, t.directory),
    roles: createClient(RoleService, t.directory),
    clientScopes: createClient(ClientScopeService, t.directory),
    audit: createClient(AuditService, t.audit),
    webhooks: createClient(WebhookService, t.audit),
    token: createClient(TokenService, t.token),
    oauth: createClient(OAuthService, t.token),
    sessions: createClient(SessionAdminService, t.token),
    scopeEvaluation: createClient(ScopeEvaluationService, t.token),
    account: createClient(AccountService, t.token),
    authentication: createClient(AuthenticationService, t.directory),
    authorizationFlow: createClient(AuthorizationFlowService, t.token),
    registrationFlow: createClient(RegistrationFlowService, t.token),
    resetCredentialsFlow: createClient(ResetCredentialsFlowService, t.token),
    saml: createClient(SamlService, t.saml),
    samlServiceProviders: createClient(ServiceProviderService, t.saml),
    samlIdp: createClient(IdpService, t.saml),
    samlSso: createClient(SamlSsoService, t.saml),
    broker: createClient(BrokerService, t.broker),
    identityProviders: createClient(IdentityProviderService, t.broker),
    brokerLogin: createClient(BrokerLoginService, t.broker),
    federation: createClient(FederationService, t.federation),
    realmParts: Object.fromEntries(REALM_PART_OWNERS.map((o) => [o, createClient(RealmTransferService, t[o])])) as RpcClients["realmParts"],
    realmImport: createClient(RealmImportService, t.directory),
  };
}
