import type { JSX } from "preact";
import type { AdminSession } from "./admin-session";
import { FormFooter, TextField, useForm } from "../ui/form";

/** The admin login (spec 4.14); the token it returns stays in memory (admin-session.ts). */
export function SignInPage(p: { session: AdminSession }): JSX.Element {
  const form = useForm({ username: "", password: "" }, (v) => p.session.signIn(v.username, v.password));
  return (
    <main class="signin" id="main">
      <form class="card signin-card" onSubmit={form.submit} noValidate>
        <h1>Tessera</h1>
        <p class="muted">Sign in to the admin console</p>
        {p.session.endedBecause ? <p class="alert alert-error" role="alert">{p.session.endedBecause}</p> : null}
        <TextField form={form} name="username" label="Username" autoComplete="username" required />
        <TextField form={form} name="password" label="Password" type="password" autoComplete="current-password" required />
        <FormFooter form={form} submit="Sign in" />
      </form>
    </main>
  );
}
