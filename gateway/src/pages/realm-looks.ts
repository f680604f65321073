import { deepFreeze } from "../../../services/kit/src/deep-freeze.js";
import type { RpcClients } from "../rpc-clients.js";
import { resolveTheme, type PageTheme } from "./themes.js";

/** What a hosted page shows of its realm. */
export interface RealmLook {
  title: string;
  theme: PageTheme;
  /** The login page links to the registration form (spec 2.1 registrationAllowed). */
  registrationAllowed?: boolean;
}

/**
 * How long a realm's look is reused. Changes through this gateway's Admin API drop it at once
 * (forget); a change through another gateway replica shows here within this bound.
 */
export const LOOK_CACHE_MS = 5_000;

/**
 * The realms' titles and themes (preset + overrides) for the hosted pages, cached: every login page
 * needs one, and it changes only when an administrator edits the realm (issue 4, performance
 * design). An unknown realm gets the default look and is never cached.
 */
export class RealmLooks {
  private readonly cache = new Map<string, { look: RealmLook; at: number }>();
  /** Bumped by forget: a read that started before a change must not fill the cache. */
  private generation = 0;

  constructor(private readonly rpc: RpcClients, private readonly now: () => number = () => performance.now()) {}

  async get(realm: string): Promise<RealmLook> {
    const hit = this.cache.get(realm);
    if (hit && this.now() - hit.at < LOOK_CACHE_MS) return hit.look;
    const generation = this.generation;
    try {
      const { realm: r } = await this.rpc.realms.getRealm({ name: realm });
      if (r) {
        const look = deepFreeze({ title: r.displayName || r.name, theme: resolveTheme(r.themeName, { ...r.theme }), registrationAllowed: r.registrationAllowed });
        if (generation === this.generation) {
          // Realm names come from request paths, but only existing realms are stored: the map is bounded by them.
          this.cache.set(realm, { look, at: this.now() });
        }
        return look;
      }
    } catch {
      // An unknown realm still gets a (default-themed) page.
    }
    return { title: "Tessera", theme: resolveTheme("tessera", {}) };
  }

  /** Drops the realm's look (its Admin API route changed or deleted it). */
  forget(realm: string): void {
    this.generation++;
    this.cache.delete(realm);
  }
}
