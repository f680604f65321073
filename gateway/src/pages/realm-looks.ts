import { Code, ConnectError } from "@connectrpc/connect";
import { deepFreeze } from "../../../services/kit/src/deep-freeze.js";
import { ReadCache } from "../../../services/kit/src/read-cache.js";
import { isPossibleRealmName } from "../../../services/kit/src/validation/realm-name.js";
import type { RpcClients } from "../rpc-clients.js";
import { resolveTheme, type PageTheme } from "./themes.js";
import { passwordRules, type PasswordPolicyFields } from "./password-rules.js";
import type { RealmLocales } from "../../../services/kit/src/i18n/locale-negotiation.js";
import type { Overrides } from "../../../services/kit/src/i18n/message-bundles.js";

/** What a hosted page shows of its realm. */
export interface RealmLook {
  title: string;
  theme: PageTheme;
  /** The login page links to the registration form (spec 2.1 registrationAllowed). */
  registrationAllowed?: boolean;
  /** The login page links to "Forgot password?" (Keycloak's resetPasswordAllowed). */
  resetPasswordAllowed?: boolean;
  /** The login page offers "Remember me" (Keycloak's rememberMe). */
  rememberMe?: boolean;
  /** The realm's password policy, one line per rule (password-rules.ts). */
  passwordRules?: string[];
  /** The policy itself, for the rules in the page's language (password-rules.ts). */
  passwordPolicy?: PasswordPolicyFields;
  /** The alias of the realm's browser flow (flow-identity-first.ts reads it). */
  browserFlow?: string;
  /** The realm's locale settings (locale-negotiation.ts). */
  locales?: RealmLocales;
  /** The realm's text overrides, locale -> key -> text (the Admin API's /localization). */
  overrides?: Overrides;
}

/** The look of a page of an unknown realm. */
const DEFAULT_LOOK: RealmLook = deepFreeze({ title: "Tessera", theme: resolveTheme("tessera", {}) });

/**
 * How long a realm's look is reused. Changes through this gateway's Admin API drop it at once
 * (forget), and so do the directory's realm events in every replica (cache-watchers.ts); this
 * bounds only what a replica that missed an event keeps showing.
 */
export const LOOK_CACHE_MS = 5_000;

/** What is cached of a realm: its look, and whether it serves hosted pages at all. */
interface Seen {
  look: RealmLook;
  enabled: boolean;
}

/**
 * The realms' titles and themes (preset + overrides) for the hosted pages, cached: every login page
 * needs one, and it changes only when an administrator edits the realm (docs/performance.md).
 * An unknown realm gets the default look and is never cached.
 */
export class RealmLooks {
  private readonly cache: ReadCache<Seen>;

  constructor(private readonly rpc: RpcClients, now: () => number = () => performance.now()) {
    this.cache = new ReadCache(LOOK_CACHE_MS, now);
  }

  async get(realm: string): Promise<RealmLook> {
    try {
      return (await this.seen(realm))?.look ?? DEFAULT_LOOK;
    } catch {
      // The directory did not answer: the page still renders, in the default look.
      return DEFAULT_LOOK;
    }
  }

  /**
   * True when the realm exists and is enabled, i.e. its hosted pages are served (the token
   * service's flows answer realm_not_found for any other). Read with the look, from the same cache
   * entry, so a page that also renders costs no second read (page-realm-guard.ts). Rejects when
   * the directory did not answer: that says nothing about the realm.
   */
  async isServed(realm: string): Promise<boolean> {
    return (await this.seen(realm))?.enabled ?? false;
  }

  private async seen(realm: string): Promise<Seen | null> {
    // A name no realm can have (page-realm-guard.ts) is unknown without asking the directory.
    if (!isPossibleRealmName(realm)) return null;
    return this.cache.get(realm, async () => {
      try {
        const { realm: r } = await this.rpc.realms.getRealm({ name: realm });
        if (!r) return null;
        const look = deepFreeze({
          title: r.displayName || r.name, theme: resolveTheme(r.themeName, { ...r.theme }), registrationAllowed: r.registrationAllowed,
          resetPasswordAllowed: r.resetPasswordAllowed, rememberMe: r.rememberMe, passwordRules: passwordRules(r), browserFlow: r.browserFlow,
          passwordPolicy: {
            passwordMinLength: r.passwordMinLength, passwordRequireUppercase: r.passwordRequireUppercase, passwordRequireLowercase: r.passwordRequireLowercase,
            passwordRequireDigits: r.passwordRequireDigits, passwordRequireSpecialChars: r.passwordRequireSpecialChars, passwordHistoryCount: r.passwordHistoryCount,
          },
          locales: { internationalizationEnabled: r.internationalizationEnabled === true, supportedLocales: [...(r.supportedLocales ?? [])], defaultLocale: r.defaultLocale ?? "" },
          overrides: await this.overrides(realm),
        });
        return { look, enabled: r.enabled };
      } catch (e) {
        // An unknown realm still gets a (default-themed) page; any other failure is no answer.
        if (ConnectError.from(e).code === Code.NotFound) return null;
        throw e;
      }
    });
  }

  /** The realm's text overrides; none when the directory does not answer (the bundles still speak). */
  private async overrides(realm: string): Promise<Overrides> {
    try {
      const { locales } = await this.rpc.localization.getLocalizationTexts({ realm });
      return Object.fromEntries(Object.entries(locales).map(([locale, l]) => [locale, { ...l.texts }]));
    } catch {
      return {};
    }
  }

  /** Drops the realm's look (it changed or was deleted), or every realm's without a name. */
  forget(realm?: string): void {
    if (realm === undefined) this.cache.dropWhere("");
    else this.cache.drop(realm);
  }
}
