import type { Collection, Store } from "../../../kit/src/store/port.js";

/** A login sent to an upstream provider, waiting for its callback (single use, browser-bound). */
export interface LoginStateRecord {
  [key: string]: unknown;
  /** 128-bit random; the `state` parameter is it plus its MAC. */
  _id: string;
  realmId: string;
  providerId: string;
  alias: string;
  /** SHA-256 of the browser-binding cookie's value. */
  browserHash: string;
  transactionId: string;
  csrfToken: string;
  /** OIDC Core 3.1.2.1 nonce and RFC 7636 code_verifier, toward the upstream. */
  nonce: string;
  codeVerifier: string;
  /** Set when the state is an account link's (no login transaction then). */
  link?: AccountLinkBinding;
  createdAt: number;
  expiresAt: number;
}

/** Who asked for an account link, and where the browser goes back to (Keycloak's client-initiated account linking). */
export interface AccountLinkBinding {
  userId: string;
  /** The SSO session the link was asked from: the callback requires the same one. */
  sessionId: string;
  clientId: string;
  /** Checked against the client's registered redirect URIs before the state was parked. */
  redirectUri: string;
  /** The client's nonce, echoed with `link_error` as Keycloak does. */
  nonce: string;
}

/** An upstream account whose email names an existing local user it may not be linked to unasked. */
export interface PendingLinkRecord {
  [key: string]: unknown;
  _id: string;
  realmId: string;
  providerId: string;
  alias: string;
  browserHash: string;
  transactionId: string;
  csrfToken: string;
  userId: string;
  username: string;
  subject: string;
  upstreamUsername: string;
  /**
   * `claims`: the upstream's claims as JSON text, for the mappers when the link is confirmed; a
   * string because claim names may hold dots ("https://example.com/roles"), which document field
   * names may not.
   */
  profile: { email?: string; firstName?: string; lastName?: string; claims?: string };
  createdAt: number;
  expiresAt: number;
}

/** Broker login states and pending links, named by intent. */
export class LoginStateRepository {
  private constructor(
    private readonly states: Collection<LoginStateRecord>,
    private readonly pending: Collection<PendingLinkRecord>,
  ) {}

  static async open(store: Store): Promise<LoginStateRepository> {
    const states = await store.collection<LoginStateRecord>({ name: "broker_login_states", ttl: true, indexes: [{ fields: ["realmId"] }] });
    const pending = await store.collection<PendingLinkRecord>({ name: "broker_pending_links", ttl: true, indexes: [{ fields: ["realmId"] }] });
    return new LoginStateRepository(states, pending);
  }

  park(state: LoginStateRecord): Promise<void> {
    return this.states.insert(state);
  }

  /** The atomic "consume once": a second callback with the same state finds nothing. An expired state is never found. */
  consume(id: string): Promise<LoginStateRecord | null> {
    return this.states.findOneAndDelete({ _id: id });
  }

  parkLink(p: PendingLinkRecord): Promise<void> {
    return this.pending.insert(p);
  }

  findLink(id: string): Promise<PendingLinkRecord | null> {
    return this.pending.get(id);
  }

  consumeLink(id: string): Promise<PendingLinkRecord | null> {
    return this.pending.findOneAndDelete({ _id: id });
  }

  async deleteRealm(realmId: string): Promise<void> {
    await this.states.deleteMany({ realmId });
    await this.pending.deleteMany({ realmId });
  }
}
