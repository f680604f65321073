import type { MembershipRecord, MembershipRepository } from "../store/membership-repository.js";
import type { UpgradeRepository } from "../store/upgrade-repository.js";
import type { UserRepository } from "../store/user-repository.js";

const UPGRADE = "membership-username-key";

type Repair = { memberships: MembershipRepository; users: UserRepository };

/**
 * Gives memberships stored before they carried the member's username (members were listed in
 * joining order then) their `usernameKey`, so they take their place in username order; deletes a
 * membership whose user is gone, as the user's deletion would have. Run when the directory
 * starts, in batches; idempotent, so several replicas may run it at once; recorded as done when
 * nothing is left, after which a start costs one read. Returns how many memberships it changed.
 * An older replica still running during a rolling upgrade may add such memberships after the
 * mark; `repairGroupMemberOrder` catches those when their group is listed.
 */
export async function backfillMemberOrder(
  d: Repair & { upgrades: UpgradeRepository; now: () => number },
  batch = 500,
): Promise<number> {
  if (await d.upgrades.isDone(UPGRADE)) return 0;
  let fixed = 0;
  for (let page = await d.memberships.withoutUsername(batch); page.length > 0; page = await d.memberships.withoutUsername(batch)) {
    fixed += await repair(d, page);
  }
  await d.upgrades.markDone(UPGRADE, d.now());
  return fixed;
}

/**
 * The same repair for one group, run before its members are listed: one indexed read when there
 * is nothing to repair. Returns how many memberships it changed.
 */
export async function repairGroupMemberOrder(d: Repair, realmId: string, groupId: string, batch = 500): Promise<number> {
  let fixed = 0;
  for (let page = await d.memberships.withoutUsernameIn(realmId, groupId, batch); page.length > 0; page = await d.memberships.withoutUsernameIn(realmId, groupId, batch)) {
    fixed += await repair(d, page);
  }
  return fixed;
}

/** Sets each membership's key from its user, or deletes it when the user is gone. */
async function repair(d: Repair, page: MembershipRecord[]): Promise<number> {
  const byRealm = new Map<string, MembershipRecord[]>();
  for (const m of page) {
    const list = byRealm.get(m.realmId);
    if (list) list.push(m);
    else byRealm.set(m.realmId, [m]);
  }
  for (const [realmId, ms] of byRealm) {
    const users = new Map((await d.users.findByIds(realmId, [...new Set(ms.map((m) => m.userId))])).map((u) => [u._id, u]));
    for (const m of ms) {
      const user = users.get(m.userId);
      // Always a string, so the membership leaves the queries above and their loops end.
      if (user) await d.memberships.setUsername(m._id, user.usernameKey ?? user.username.toLowerCase());
      else await d.memberships.deleteWhere({ realmId, _id: m._id });
    }
  }
  return page.length;
}
