/** The texts the hosted consent page lists (its `<ul class="scopes">`), in order. */
export const listed = (html: string): Array<string | undefined> =>
  [...(/<ul class="scopes">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "").matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]);

/** Keycloak's consent texts of the built-in scopes the pages list. */
export const builtin = (name: "email" | "profile"): string => ({ email: "Email address", profile: "User profile" })[name];
