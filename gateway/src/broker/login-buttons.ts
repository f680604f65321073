import { FlowStep, type FlowPage } from "../../../gen/iam/token/v1/authorization_pb.js";
import { currentContext } from "../../../services/kit/src/context.js";
import type { LoginOptions } from "../pages/login-options.js";

export interface ProviderButton {
  alias: string;
  displayName: string;
  url: string;
}

/**
 * The login page's "Sign in with <provider>" links (spec 4.19): one per enabled provider of the
 * realm, carrying the login transaction and its CSRF token, so the broker's login continues this
 * authorization request. Links rather than forms: the answer is a redirect to another origin,
 * which a form's CSP form-action would refuse. Only on the login page of an authorization request
 * or a SAML login (not a device's). When the broker does not answer, the page has no buttons.
 */
export async function providerButtons(options: LoginOptions, realm: string, page: FlowPage, action: string): Promise<ProviderButton[]> {
  if (page.step !== FlowStep.LOGIN || page.userCode || !page.transactionId) return [];
  if (!action.endsWith("/protocol/openid-connect/auth") && !action.endsWith("/protocol/saml")) return [];
  try {
    const providers = await options.providers(realm);
    // The prefilled username (the client's login_hint) is the hint a provider may be passed.
    const q = new URLSearchParams({ tx: page.transactionId, csrf: page.csrfToken, ...(page.username ? { login_hint: page.username } : {}) }).toString();
    return providers.map((p) => ({
      alias: p.alias, displayName: p.displayName || p.alias,
      url: `/realms/${encodeURIComponent(realm)}/broker/${encodeURIComponent(p.alias)}/login?${q}`,
    }));
  } catch (err) {
    currentContext()?.logger.warn({ err, realm }, "login page shown without identity provider buttons");
    return [];
  }
}
