import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, SelectField, TextField, useForm, type Values } from "../ui/form";
import { Section } from "../ui/widgets";
import type { UserRow } from "./users-page";

const KINDS = [{ value: "access-token", label: "Access token" }, { value: "id-token", label: "ID token" }, { value: "userinfo", label: "Userinfo" }];

/**
 * Keycloak's Client scopes -> Evaluate: the claims of the access token, ID token or userinfo the
 * client would give a user for a scope parameter (the API's example, neither signed nor stored).
 */
export function ClientEvaluate(p: { session: AdminSession; realm: string; path: string }): JSX.Element {
  const [claims, setClaims] = useState("");
  const form = useForm<Values>({ username: "", scope: "", kind: "access-token" }, async (v) => {
    setClaims("");
    const name = String(v.username).trim();
    const found = await p.session.request<{ users: UserRow[] }>("GET", `/admin/realms/${encodeURIComponent(p.realm)}/users?${new URLSearchParams({ username: name, limit: "1" })}`);
    const user = found.users[0];
    if (!user) throw new Error(`no user named ${name} in this realm`);
    const query = new URLSearchParams({ userId: user.id, scope: String(v.scope).trim() });
    const body = await p.session.request<Record<string, unknown>>("GET", `${p.path}/evaluate-scopes/generate-example-${String(v.kind)}?${query}`);
    setClaims(JSON.stringify(body, null, 2));
  });
  return (
    <Section title="Evaluate scopes">
      <form onSubmit={form.submit} noValidate aria-label="Evaluate scopes" class="grid">
        <TextField form={form} name="username" label="User" required hint="The username whose claims to show." />
        <TextField form={form} name="scope" label="Scope parameter" hint="Space-separated, as a token request sends it; openid is added." />
        <SelectField form={form} name="kind" label="Show" options={KINDS} />
        <FormFooter form={form} submit="Evaluate" />
      </form>
      {claims ? <pre aria-label="Example claims" tabIndex={0}>{claims}</pre> : null}
    </Section>
  );
}
