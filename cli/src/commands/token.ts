import type { Command } from "commander";
import { CliError, EXIT } from "../exit-codes.js";
import { addOutputOptions } from "../output.js";
import { action, client, print, requireRealm, type OutputOptions } from "../run-action.js";

/**
 * `tessera token`: a token from a realm's token endpoint, for scripts. Prints the access token
 * alone (so `$(tessera token ...)` is the bearer), or the whole answer with --json.
 */
export function addTokenCommand(program: Command): void {
  const cmd = program.command("token")
    .description("fetch a token for a client (client_credentials, or password with --username)")
    .requiredOption("-r, --realm <realm>", "the realm")
    .requiredOption("--client-id <clientId>", "the client")
    .option("--client-secret <secret>", "the client's secret (or TESSERA_CLIENT_SECRET)")
    .option("--scope <scope>", "requested scope")
    .option("--username <username>", "a user (password grant)")
    .option("--password <password>", "the user's password (or TESSERA_USER_PASSWORD)");
  addOutputOptions(cmd, "print the whole token response").action(action(async (o: OutputOptions & { realm: string; clientId: string; clientSecret?: string; scope?: string; username?: string; password?: string }) => {
    const realm = requireRealm(o.realm);
    const secret = o.clientSecret ?? process.env.TESSERA_CLIENT_SECRET;
    const form = new URLSearchParams({ client_id: o.clientId });
    if (secret) form.set("client_secret", secret);
    if (o.scope) form.set("scope", o.scope);
    if (o.username) {
      const password = o.password ?? process.env.TESSERA_USER_PASSWORD;
      if (!password) throw new CliError(EXIT.usage, "--username needs --password (or TESSERA_USER_PASSWORD)");
      form.set("grant_type", "password");
      form.set("username", o.username);
      form.set("password", password);
    } else {
      if (!secret) throw new CliError(EXIT.usage, "client_credentials needs --client-secret (or TESSERA_CLIENT_SECRET)");
      form.set("grant_type", "client_credentials");
    }
    const answer = await client().publicRequest("POST", `/realms/${encodeURIComponent(realm)}/protocol/openid-connect/token`, form) as Record<string, unknown>;
    if (o.json || o.output !== "table") print(answer, o);
    else process.stdout.write(`${String(answer.access_token)}\n`);
  }));
}
