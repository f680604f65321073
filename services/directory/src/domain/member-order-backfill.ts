import type { MembershipRecord, MembershipRepository } from "../store/membership-repository.js";
import type { UpgradeRepository } from "../store/upgrade-repository.js";
import type { UserRepository } from "../store/user-repository.js";

const UPGRADE = "membership-username-key";

/**
 * Gives memberships stored before they carried the member's username (members were listed in
 * joining order then) their `usernameKey`, so they take their place in username order; deletes a
 * membership whose user is gone, as the user's deletion would have. Run when the directory
 * starts, in batches; idempotent, so several replicas may run it at once; recorded as done when
 * nothing is left, after which a start costs one read. Returns how many memberships it changed.
 */
export async function backfillMemberOrder(
  d: { memberships: MembershipRepository; users: UserRepository; upgrades: UpgradeRepository; now: () => number },
  batch = 500,
): Promise<number> {
  if (await d.upgrades.isDone(UPGRADE)) return 0;
  let fixed = 0;
  for (;;) {
    const page = await d.memberships.withoutUsername(batch);
    if (page.length === 0) break;
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
        // Always a string, so the membership leaves the query above and the loop ends.
        if (user) await d.memberships.setUsername(m._id, user.usernameKey ?? user.username.toLowerCase());
        else await d.memberships.deleteWhere({ realmId, _id: m._id });
        fixed++;
      }
    }
  }
  await d.upgrades.markDone(UPGRADE, d.now());
  return fixed;
}
