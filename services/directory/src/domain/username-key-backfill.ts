import type { Logger } from "pino";
import { IamError } from "../../../kit/src/errors.js";
import type { MembershipRepository } from "../store/membership-repository.js";
import type { UpgradeRepository } from "../store/upgrade-repository.js";
import type { UserRepository } from "../store/user-repository.js";
import { usernameKeyOf } from "./username.js";

const UPGRADE = "username-nfkc-key";

/**
 * Gives users stored before usernames were NFKC-normalised (username.ts) the NFKC key, keeping
 * their username as it is: only a username with compatibility characters (fullwidth `ｃａｒｏｌ`)
 * has a key that differs. Without it, a new `carol` could be created beside the old `ｃａｒｏｌ`
 * and would then take its logins, since every lookup normalises first. A user whose NFKC key is
 * already another user's keeps its old key (the lookup's second try still finds it) and is
 * logged. Run when the directory starts, once: idempotent, recorded as done, after which a start
 * costs one read. Returns how many users it moved.
 */
export async function backfillUsernameKeys(
  d: { users: UserRepository; memberships: MembershipRepository; upgrades: UpgradeRepository; now: () => number; logger: Logger },
  batch = 500,
): Promise<number> {
  if (await d.upgrades.isDone(UPGRADE)) return 0;
  let moved = 0;
  for (let page = await d.users.after("", batch); page.length > 0; page = await d.users.after(page[page.length - 1]!._id, batch)) {
    for (const u of page) {
      const key = usernameKeyOf(u.username);
      if (key === u.usernameKey) continue;
      try {
        if (!(await d.users.moveUsernameKey(u.realmId, u._id, u.usernameKey, key))) continue;
      } catch (e) {
        if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
        d.logger.warn({ realmId: u.realmId, userId: u._id }, "user keeps its pre-NFKC username key: another user has the normalised one");
        continue;
      }
      await d.memberships.renameMember(u.realmId, u._id, key);
      moved++;
    }
  }
  await d.upgrades.markDone(UPGRADE, d.now());
  return moved;
}
