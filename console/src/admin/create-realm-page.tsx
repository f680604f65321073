import type { JSX } from "preact";
import type { AdminSession } from "./admin-session";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { useLoad } from "../ui/widgets";
import { go, href } from "./router";
import { REALM_GROUPS, realmBody, realmValues } from "./realm-fields";
import { RealmFieldsForm } from "./realm-fields-form";

const FIELDS = REALM_GROUPS.flatMap((g) => g.fields);

/** Every create field of spec 2.1, the login-event and admin-event switches among them. */
export function CreateRealmPage(p: { session: AdminSession }): JSX.Element {
  const themes = useLoad(() => p.session.request<string[]>("GET", "/admin/realms/themes"), []);
  const form = useForm<Values>({ name: "", ...realmValues({}, FIELDS) }, async (v) => {
    const created = await p.session.request<{ name: string }>("POST", "/admin/realms", { name: String(v.name).trim(), ...realmBody(v, FIELDS) });
    go(href(created.name, "users"));
  });
  return (
    <>
      <div class="page-head"><h1>Create realm</h1></div>
      <form class="card" onSubmit={form.submit} noValidate>
        <fieldset class="group">
          <legend>Realm</legend>
          <TextField form={form} name="name" label="Realm name" required hint="Lowercase letters, digits and dashes; used in every URL of the realm." />
        </fieldset>
        <RealmFieldsForm form={form} groups={REALM_GROUPS} themes={themes.data ?? []} />
        <FormFooter form={form} submit="Create realm"><a class="button" href="#/realms">Cancel</a></FormFooter>
      </form>
    </>
  );
}
