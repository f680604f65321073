import type { Request, Response } from "express";
import { readCookie } from "../oidc/browser-cookies.js";
import { negotiateLocale, supportedChoice, type RealmLocales } from "../../../services/kit/src/i18n/locale-negotiation.js";
import { localeLabel, translateServerMessage, translator, type Overrides, type Translate } from "../../../services/kit/src/i18n/message-bundles.js";

/** The remembered language choice (Keycloak's KEYCLOAK_LOCALE cookie). */
export const LOCALE_COOKIE = "TESSERA_LOCALE";

/** One entry of the page's language menu. */
export interface LanguageLink {
  tag: string;
  label: string;
  href: string;
  current: boolean;
}

/** What a page needs to speak its locale: the tag (`<html lang>`), its texts, the language menu. */
export interface PageLocale {
  locale: string;
  t: Translate;
  /** A service's English message in the page's locale (message-bundles.ts). */
  serverMessage: (message: string) => string;
  languages: LanguageLink[];
}

export interface LocaleSources {
  realm: string;
  publicUrl: string;
  locales: RealmLocales;
  overrides: Overrides;
  /** The login transaction's ui_locales, when the page belongs to one. */
  uiLocales?: string;
  /** The signed-in user's `locale` attribute, when known. */
  userLocale?: string;
  /** The transaction the page belongs to: the menu's links continue it. */
  transactionId?: string;
}

/**
 * The locale of a hosted page (locale-negotiation.ts), from the request the page answers. A
 * kc_locale the realm supports is remembered in TESSERA_LOCALE (HttpOnly, SameSite=Lax, the
 * realm's path), as Keycloak's LocaleUpdaterProvider.updateLocaleCookie does.
 */
export function pageLocale(req: Request | undefined, res: Response, s: LocaleSources): PageLocale {
  const query = req?.query ?? {};
  const kcLocale = typeof query.kc_locale === "string" ? query.kc_locale.slice(0, 64) : undefined;
  const choice = supportedChoice(s.locales, kcLocale);
  if (choice) {
    res.cookie(LOCALE_COOKIE, choice, { path: `/realms/${s.realm}/`, httpOnly: true, sameSite: "lax", secure: s.publicUrl.startsWith("https:") });
  }
  const locale = negotiateLocale(s.locales, {
    kcLocale, userLocale: s.userLocale, uiLocales: s.uiLocales,
    cookie: req ? readCookie(req, LOCALE_COOKIE) : undefined, acceptLanguage: req?.headers["accept-language"],
  });
  const t = translator(locale, s.overrides);
  return { locale, t, serverMessage: (m) => translateServerMessage(m, t), languages: languageMenu(req, s, locale) };
}

/**
 * Keycloak shows the menu when the realm has internationalization and more than one supported
 * locale. Each link asks for the same page in another language: a GET page again with kc_locale;
 * a page that answered a form post, its transaction's login page (a form cannot be re-posted by a
 * link). Without either, no menu.
 */
function languageMenu(req: Request | undefined, s: LocaleSources, current: string): LanguageLink[] {
  if (!s.locales.internationalizationEnabled || s.locales.supportedLocales.length < 2 || !req) return [];
  let base: URL;
  if (req.method === "GET") base = new URL(req.originalUrl, "http://page.invalid");
  else if (s.transactionId) {
    base = new URL(`/realms/${s.realm}/login-actions/authenticate`, "http://page.invalid");
    base.searchParams.set("tx", s.transactionId);
  } else return [];
  return s.locales.supportedLocales.map((tag) => {
    base.searchParams.set("kc_locale", tag);
    return { tag, label: localeLabel(tag), href: `${base.pathname}${base.search}`, current: tag === current };
  });
}
