/**
 * The Tessera plugin interface (docs/plugins.md): what a package named in TESSERA_PLUGINS exports.
 * Types only, so a plugin written in TypeScript or in JavaScript with JSDoc imports them from
 * `tessera/plugin` (package.json "exports") and never depends on the server's code at run time.
 *
 * Every value a plugin receives is a copy: changing it changes nothing in the server. Every call
 * runs with the configured timeout (TESSERA_PLUGIN_TIMEOUT_MS); a call that throws, rejects or
 * does not settle in time fails only itself (plugin-calls.ts).
 */

/** The extension kinds a plugin can provide; a plugin lists the ones it provides in `kinds`. */
export type PluginKind = "event-listener" | "protocol-mapper" | "authenticator";
export const PLUGIN_KINDS: readonly PluginKind[] = ["event-listener", "protocol-mapper", "authenticator"];

/** What the default export (or the export named `plugin`) of a plugin package is. */
export interface TesseraPlugin {
  /** Lower-case letters, digits and dashes, 1 to 64 characters; unique among the loaded plugins. */
  id: string;
  /** The plugin's own version (semantic versioning), shown in the logs at boot. */
  version: string;
  /** Exactly the kinds provided below. */
  kinds: PluginKind[];
  /** Once at boot, before any other call; a throw stops the process (exit 78), naming the plugin. */
  init?(context: PluginContext): void | Promise<void>;
  eventListener?: EventListener;
  protocolMapper?: ProtocolMapper;
  authenticator?: AuthenticatorStep;
}

export interface PluginContext {
  /** The process's environment, read-only: a plugin's own settings (use your own prefix). */
  env: Readonly<Record<string, string | undefined>>;
  /** Logs under `plugin: <id>`; never log a password, secret, code or token. */
  log: PluginLog;
}

export interface PluginLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

// ---- event listeners ---------------------------------------------------------------------------

/** A login event (spec 6.1), as the audit service stores it. */
export interface LoginEventView {
  id: string;
  /** Epoch milliseconds. */
  time: number;
  realm: string;
  /** LOGIN, LOGIN_ERROR, LOGOUT, CODE_TO_TOKEN, REFRESH_TOKEN, ... */
  type: string;
  clientId: string;
  userId: string;
  sessionId: string;
  ipAddress: string;
  error: string;
  details: Record<string, string>;
}

/** An admin event (spec 6.2), as the audit service stores it; secrets are already redacted. */
export interface AdminEventView {
  id: string;
  time: number;
  realm: string;
  /** CREATE, UPDATE, DELETE, ACTION. */
  operationType: string;
  resourceType: string;
  resourcePath: string;
  authDetails: { type: string; adminId: string; username: string; ipAddress: string };
  /** The JSON representation written, when the event has one ("" otherwise). */
  representation: string;
}

/**
 * Receives each stored event once (at most once across a crash), in order per listener, after
 * the audit service has stored it: a slow listener never delays storage or other listeners.
 */
export interface EventListener {
  onLoginEvent?(event: LoginEventView): void | Promise<void>;
  onAdminEvent?(event: AdminEventView): void | Promise<void>;
}

// ---- protocol mappers --------------------------------------------------------------------------

/**
 * A protocol mapper type `plugin:<id>`. An admin adds it to a client scope like any mapper
 * (`mapperType: "plugin:<id>"`), with the token switches (`id.token.claim`, ...), an optional
 * `claim.name` and the plugin's own `configKeys`.
 */
export interface ProtocolMapper {
  /** The claim written when the mapper's config names none (`a.b` nests); a protocol claim is refused. */
  defaultClaimName: string;
  /** Config keys the mapper reads, besides the token switches and `claim.name`. */
  configKeys?: string[];
  /** Keys of `configKeys` an admin must set. */
  requiredConfigKeys?: string[];
  /**
   * The claim's value (any JSON value), or undefined to leave the claim out. A throw, a value that
   * is not JSON or a timeout leaves the claim out; the token is still issued.
   */
  map(input: MapperInput): unknown | Promise<unknown>;
}

export interface MapperInput {
  realm: string;
  user: MapperUser;
  client: { clientId: string };
  /** The login the token belongs to, and the scopes the claims are computed for. */
  session: MapperSession;
  /** The mapper's config as the admin stored it. */
  config: Record<string, string>;
}

/**
 * The user session of a token's login, as Keycloak's mapper SPI hands its mappers the user
 * session: the same values the token's `sid` and the ID token's `auth_time` carry.
 */
export interface MapperSession {
  /**
   * The SSO session the token belongs to (its `sid` claim; without a browser login, the refresh
   * session a password grant started). "" when the token has none: client_credentials (a service
   * account), or a password grant of a client without refresh tokens.
   */
  id: string;
  /**
   * When the user authenticated, in seconds since the epoch (`auth_time`, OIDC Core 1.0 section
   * 2); undefined exactly when `id` is "".
   */
  authTime: number | undefined;
  /** What the login asked for. */
  requestedScopes: string[];
  /** The scopes the claims are computed for. */
  grantedScopes: string[];
}

export interface MapperUser {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  emailVerified: boolean;
  attributes: Record<string, string[]>;
  realmRoles: string[];
  /** clientId -> role names. */
  clientRoles: Record<string, string[]>;
  /** Full paths of the user's groups. */
  groups: string[];
}

// ---- authenticator steps -----------------------------------------------------------------------

/** A flow step type `plugin:<id>` (authentication flows). */
export interface AuthenticatorStep {
  /** Shown to admins. */
  displayName: string;
  /** The step identifies the user (a flow can start with it). */
  identifies?: boolean;
  /** The step checks a credential (a flow must check at least one). */
  credential?: boolean;
  /** Config keys the step takes in a flow (`config`), and which of them are required. */
  configKeys?: string[];
  requiredConfigKeys?: string[];
  authenticate(input: StepInput): StepResult | Promise<StepResult>;
}

export interface StepInput {
  realm: { name: string };
  client: { clientId: string };
  /** Undefined while no earlier step has identified the user. */
  user?: { id: string; username: string; email: string; attributes: Record<string, string[]> };
  /** The fields of the step's page the user submitted; empty on the step's first call. */
  form: Record<string, string>;
  /** The step's config in the flow. */
  config: Record<string, string>;
}

/** A field of a challenge page; rendered by the login page's template (escaped). */
export interface ChallengeField {
  name: string;
  label: string;
  type: "text" | "password" | "number";
}

export type StepResult =
  | { outcome: "success" }
  /** `error` is shown to the user and recorded as the login event's error (no secrets). */
  | { outcome: "failure"; error: string }
  /** Asks the user for input: the page is shown and its fields come back as `form`. */
  | { outcome: "challenge"; page: { title: string; message?: string; fields: ChallengeField[] } };
