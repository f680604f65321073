/** Who the upstream says the user is, in the broker's terms. */
export interface UpstreamProfile {
  /** OIDC `sub`; GitHub: the account's numeric id. */
  subject: string;
  username?: string;
  email?: string;
  /** The upstream vouches for the email (OIDC `email_verified`; GitHub: a verified primary email). */
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
  /**
   * The upstream's raw claims for the identity provider mappers: the ID token's and userinfo's
   * (Keycloak's AbstractClaimMapper reads both), or GitHub's user object.
   */
  claims?: Record<string, unknown>;
}

function str(v: unknown, max = 255): string | undefined {
  return typeof v === "string" && v.trim() && v.length <= max ? v.trim() : undefined;
}

/** OIDC Core 5.1 standard claims, from the ID token and userinfo. */
export function profileFromClaims(c: Record<string, unknown>): UpstreamProfile {
  const [first, ...rest] = (str(c.name) ?? "").split(/\s+/);
  const firstName = str(c.given_name) ?? (first || undefined);
  const lastName = str(c.family_name) ?? (rest.join(" ") || undefined);
  return {
    subject: String(c.sub),
    ...(str(c.preferred_username) ? { username: str(c.preferred_username) } : {}),
    ...(str(c.email, 254) ? { email: str(c.email, 254) } : {}),
    // Some providers send "true" as a string.
    emailVerified: c.email_verified === true || c.email_verified === "true",
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
    claims: c,
  };
}

/** GitHub's GET /user and GET /user/emails (REST API "Users", "Emails"). */
export function profileFromGitHub(user: Record<string, unknown>, emails: unknown): UpstreamProfile {
  const list = Array.isArray(emails) ? (emails as Array<Record<string, unknown>>) : [];
  const primary = list.find((e) => e.primary === true && e.verified === true && typeof e.email === "string");
  const [first, ...rest] = (str(user.name) ?? "").split(/\s+/);
  return {
    subject: String(user.id),
    ...(str(user.login) ? { username: str(user.login) } : {}),
    ...(primary ? { email: String(primary.email) } : {}),
    emailVerified: primary !== undefined,
    ...(first ? { firstName: first } : {}),
    ...(rest.length ? { lastName: rest.join(" ") } : {}),
    claims: user,
  };
}
