import { IamError } from "../../../kit/src/errors.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { sha256Hex } from "../../../kit/src/crypto/random.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { checkEmail, checkLength } from "../../../kit/src/validation/checks.js";
import type { OrganizationRealms } from "./organization-realms.js";
import type { RealmMailer } from "./realm-mailer.js";
import type { RealmRecord } from "./realm.js";
import type { UserAdmin } from "./user-admin.js";
import type { UserRecord } from "./user.js";
import type { OrganizationRecord } from "./organization.js";
import type { OrganizationAdmin } from "./organization-admin.js";
import type { OrganizationMembers } from "./organization-members.js";
import { INVITATION_TTL_MS, invitationLink, openInvitation, type Invitation } from "./invitation-link.js";
import type { UserRepository } from "../store/user-repository.js";
import type { OrganizationMemberRepository } from "../store/organization-member-repository.js";
import type { UsedVerifyKeyRepository } from "../store/used-verify-key-repository.js";
import type { UserEvents } from "../events/user-events.js";

export interface AcceptInput {
  username?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  inspect?: boolean;
}

export interface AcceptResult {
  organizationName: string;
  email: string;
  needsAccount: boolean;
  userId: string;
  redirectUrl: string;
  firstName: string;
  lastName: string;
}

const invalidLink = () => IamError.invalid("key", "This invitation link is invalid or has expired.", "invitation_invalid");

/**
 * Invitations to an organization by email (Keycloak 26's `members/invite-user` and
 * `members/invite-existing-user`): a signed, expiring, single-use link mailed through the realm's
 * SMTP. Opening it shows the organization; accepting it joins the account holding the email, or
 * registers one (the link proves the mailbox, so the new account's email is verified).
 */
export class OrganizationInvitations {
  constructor(
    private readonly realms: OrganizationRealms,
    private readonly organizations: OrganizationAdmin,
    private readonly members: OrganizationMembers,
    private readonly memberRepo: OrganizationMemberRepository,
    private readonly users: UserRepository,
    private readonly userAdmin: UserAdmin,
    private readonly usedKeys: UsedVerifyKeyRepository,
    private readonly mailer: RealmMailer,
    private readonly events: UserEvents,
    private readonly secrets: SecretBox,
    private readonly publicUrl: string,
    private readonly clock: Clock,
  ) {}

  async inviteUser(realmName: string, organizationId: string, input: { email: string; firstName: string; lastName: string }): Promise<void> {
    const realm = await this.realms.byName(realmName);
    const org = await this.enabledOrganization(realm, organizationId);
    if (!input.email.trim()) throw IamError.invalid("email", "email is required");
    const email = checkEmail("email", input.email.trim());
    const holder = await this.users.findByEmail(realm._id, email);
    if (holder && (await this.memberRepo.find(realm._id, org._id, holder._id))) {
      throw IamError.conflict("user is already a member of the organization", "email");
    }
    const firstName = checkLength("firstName", input.firstName.trim(), 0, 255);
    const lastName = checkLength("lastName", input.lastName.trim(), 0, 255);
    await this.mail(realm, org, { organizationId: org._id, email, firstName, lastName }, holder?.username ?? "");
    await this.events.admin(realm, "ACTION", "ORGANIZATION_MEMBERSHIP", `organizations/${org._id}/members/invite-user`);
  }

  async inviteExistingUser(realmName: string, organizationId: string, userId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    const org = await this.enabledOrganization(realm, organizationId);
    const user = userId.trim() ? await this.users.findById(realm._id, userId.trim()) : null;
    if (!user) throw IamError.invalid("id", `user "${userId.slice(0, 64)}" does not exist`, "user_not_found");
    if (!user.email) throw IamError.invalid("id", "user has no email address", "user_has_no_email");
    if (await this.memberRepo.find(realm._id, org._id, user._id)) throw IamError.conflict("user is already a member of the organization", "id");
    await this.mail(realm, org, { organizationId: org._id, email: user.email, userId: user._id }, user.username);
    await this.events.admin(realm, "ACTION", "ORGANIZATION_MEMBERSHIP", `organizations/${org._id}/members/invite-existing-user`);
  }

  /**
   * Opens (`inspect`) or accepts the invitation of `key`. Accepting consumes the key once and for
   * all (a conditional insert of its hash): a second accept, even concurrent, is refused. A new
   * account is created before the key is consumed, so a refused username or password leaves the
   * link usable; two concurrent registrations cannot both succeed (the email is unique).
   */
  async accept(realmName: string, key: string, input: AcceptInput): Promise<AcceptResult> {
    const realm = await this.realms.byName(realmName);
    const now = this.clock.now();
    const inv = key ? openInvitation(this.secrets, key, now) : null;
    if (!inv || inv.realmId !== realm._id) throw invalidLink();
    const org = await this.organizations.find(realm, inv.organizationId).catch(() => null);
    if (!org || !org.enabled) throw invalidLink();
    const hash = sha256Hex(key);
    if (await this.usedKeys.isUsed(hash)) throw IamError.invalid("key", "This invitation was already accepted.", "invitation_used");
    let user = await this.invitee(realm, inv);
    const result = (u: UserRecord | null): AcceptResult => ({
      organizationName: org.name, email: inv.email, needsAccount: u === null, userId: u?._id ?? "", redirectUrl: org.redirectUrl,
      firstName: inv.firstName ?? "", lastName: inv.lastName ?? "",
    });
    if (input.inspect) return result(user);
    if (!user) {
      const { user: created } = await this.userAdmin.create(realm.name, {
        username: input.username ?? "", password: input.password ?? "", email: inv.email, emailVerified: true,
        firstName: (input.firstName ?? inv.firstName ?? "").trim(), lastName: (input.lastName ?? inv.lastName ?? "").trim(),
      });
      user = created;
    }
    if (!(await this.usedKeys.markUsed(hash, realm._id, user._id, now, inv.expiresAt))) {
      throw IamError.invalid("key", "This invitation was already accepted.", "invitation_used");
    }
    try {
      await this.members.addUser(realm, org._id, user);
    } catch (e) {
      // Already a member (an admin added them meanwhile): the invitation's purpose is met.
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
    }
    return result(user);
  }

  /** The account the invitation is for: the one named, or the one holding the email; null: none yet. */
  private async invitee(realm: RealmRecord, inv: Invitation): Promise<UserRecord | null> {
    if (inv.userId) {
      const user = await this.users.findById(realm._id, inv.userId);
      if (!user) throw invalidLink();
      return user;
    }
    return this.users.findByEmail(realm._id, inv.email);
  }

  private async enabledOrganization(realm: RealmRecord, organizationId: string): Promise<OrganizationRecord> {
    const org = await this.organizations.find(realm, organizationId);
    if (!org.enabled) {
      throw new IamError({ code: "failedPrecondition", reason: "organization_disabled", message: "the organization is disabled" });
    }
    return org;
  }

  private async mail(realm: RealmRecord, org: OrganizationRecord, inv: Omit<Invitation, "realmId" | "expiresAt">, username: string): Promise<void> {
    const link = invitationLink(this.secrets, this.publicUrl, realm, inv, this.clock.now());
    const realmName = realm.displayName || realm.name;
    const hours = INVITATION_TTL_MS / 3_600_000;
    const hello = username || [inv.firstName, inv.lastName].filter(Boolean).join(" ") || inv.email;
    await this.mailer.send(realm, {
      to: inv.email,
      subject: `Invitation to join the ${org.name} organization`,
      text: `Hello ${hello},\n\nyou were invited to join the ${org.name} organization at ${realmName}. Open this link to join:\n\n${link}\n\n`
        + `The link expires in ${hours} hours. If you did not expect this email, ignore it.\n`,
      html: `<p>Hello ${escapeHtml(hello)},</p><p>you were invited to join the ${escapeHtml(org.name)} organization at ${escapeHtml(realmName)}.</p>`
        + `<p><a href="${escapeHtml(link)}">Join ${escapeHtml(org.name)}</a></p><p>The link expires in ${hours} hours.</p>`,
    });
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
