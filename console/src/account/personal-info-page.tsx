import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AccountSession } from "./account-session";
import { FormFooter, TextField, useForm } from "../ui/form";
import { ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";

export interface Profile {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  /** Asked for with `userProfileMetadata=true`, as Keycloak's account console asks. */
  userProfileMetadata?: { attributes: Array<{ name: string; readOnly: boolean }> };
}

/** The username is a form field only where the realm's editUsernameAllowed lets the user change it. */
function usernameEditable(profile: Profile): boolean {
  return profile.userProfileMetadata?.attributes.some((a) => a.name === "username" && !a.readOnly) ?? false;
}

export function PersonalInfoPage(p: { session: AccountSession }): JSX.Element {
  const profile = useLoad(() => p.session.request<Profile>("GET", "/profile?userProfileMetadata=true"), []);
  return (
    <>
      <div class="page-head"><h1>Personal info</h1></div>
      {profile.loading && !profile.data ? <Loading what="your profile" /> : null}
      <ErrorAlert message={profile.error} />
      {profile.data ? <ProfileForm session={p.session} profile={profile.data} /> : null}
    </>
  );
}

function ProfileForm(p: { session: AccountSession; profile: Profile }): JSX.Element {
  const [saved, setSaved] = useState<Profile | null>(null);
  const editable = usernameEditable(p.profile);
  const form = useForm({ username: p.profile.username, email: p.profile.email, firstName: p.profile.firstName, lastName: p.profile.lastName }, async (v) => {
    setSaved(null);
    // A read-only username is not sent: the API refuses any other one (username_read_only).
    const { username, ...rest } = v;
    setSaved(await p.session.request<Profile>("POST", "/profile", editable ? { username, ...rest } : rest));
  });
  const shown = saved ?? p.profile;
  return (
    <Section title="Profile">
      <form onSubmit={form.submit} noValidate>
        {editable ? <TextField form={form} name="username" label="Username" autoComplete="username" /> : (
          <div class="field">
            <span class="label-row"><span class="label">Username</span></span>
            <span class="mono" id="username-value">{shown.username}</span>
          </div>
        )}
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email"
          hint={shown.email ? (shown.emailVerified ? "Verified." : "Not verified yet.") : undefined} />
        <TextField form={form} name="firstName" label="First name" autoComplete="given-name" />
        <TextField form={form} name="lastName" label="Last name" autoComplete="family-name" />
        {saved ? <Notice message="Your account has been updated." /> : null}
        <FormFooter form={form} submit="Save" />
      </form>
    </Section>
  );
}
