import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { Notice } from "../ui/widgets";
import { attributesOf, attributesText } from "./attribute-lines";

/**
 * A user's attributes (Keycloak's Attributes tab), as `key=value` lines; saving replaces the
 * whole set, as the API's PUT reads `attributes`.
 */
export function UserAttributes(p: { session: AdminSession; path: string; attributes: Record<string, string[]> | undefined; onSaved(): void }): JSX.Element {
  const [saved, setSaved] = useState(false);
  const form = useForm<Values>({ attributes: attributesText(p.attributes) }, async (v) => {
    setSaved(false);
    await p.session.request("PUT", p.path, { attributes: attributesOf(String(v.attributes)) });
    setSaved(true);
    p.onSaved();
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label="User attributes">
      <h2>Attributes</h2>
      {saved ? <Notice message="Attributes saved." /> : null}
      <TextField form={form} name="attributes" label="Attributes" multiline hint="One key=value a line; repeat a key for several values." />
      <FormFooter form={form} submit="Save attributes" />
    </form>
  );
}
