import type { Command } from "commander";
import { AdminClient } from "../admin-client.js";
import { configPath, saveProfile, savedProfile, serverUrl, type Profile } from "../config-file.js";
import { CliError, EXIT } from "../exit-codes.js";
import { action } from "../run-action.js";

/**
 * `tessera login`: checks the credential against the server, then keeps the profile. It never
 * prompts, so it works in scripts and CI; the key may come from TESSERA_API_KEY instead of the
 * command line, where other users of the machine could read it.
 */
export function addLoginCommand(program: Command): void {
  program.command("login")
    .description("check credentials against a Tessera server and keep them in the profile (mode 0600)")
    .requiredOption("--url <url>", "the server's base URL, e.g. http://localhost:8080")
    .option("--api-key <key>", "an Admin API key (or set TESSERA_API_KEY)")
    .option("--username <username>", "an admin account's username (admin login)")
    .option("--password <password>", "that account's password")
    .action(action(async (o: { url: string; apiKey?: string; username?: string; password?: string }) => {
      const url = serverUrl(o.url, "--url");
      const apiKey = o.apiKey ?? process.env.TESSERA_API_KEY;
      let profile: Profile;
      if (apiKey) {
        profile = { url, apiKey };
        const c = new AdminClient(profile);
        await c.call(c.api.GET("/admin/realms"));
      } else if (o.username && o.password) {
        const c = new AdminClient({ url });
        const answer = await c.call(c.api.POST("/admin/auth/login", { body: { username: o.username, password: o.password } }));
        profile = { url, accessToken: answer.accessToken, ...(answer.refreshToken ? { refreshToken: answer.refreshToken } : {}), username: o.username };
      } else {
        throw new CliError(EXIT.usage, "give --api-key (or TESSERA_API_KEY), or --username and --password");
      }
      const path = saveProfile(profile);
      process.stdout.write(`logged in to ${url}; profile saved to ${path}\n`);
    }));

  program.command("logout").description("end an admin login's sign-in on the server and forget the saved credential").action(action(async () => {
    const saved = savedProfile();
    if (saved?.url && saved.refreshToken) {
      // The server ends the sign-in, so a copy of the saved tokens is worthless too; the local
      // credential goes whether or not the server could be reached.
      const c = new AdminClient({ url: saved.url });
      try {
        await c.call(c.api.POST("/admin/auth/logout", { body: { refreshToken: saved.refreshToken } }));
        process.stdout.write(`signed out of ${saved.url}\n`);
      } catch (e) {
        process.stderr.write(`tessera: the sign-in could not be ended on ${saved.url} (${e instanceof Error ? e.message : String(e)}); its token stays valid until it expires\n`);
      }
    }
    saveProfile({ url: "" });
    process.stdout.write(`credential removed from ${configPath()}\n`);
  }));
}
