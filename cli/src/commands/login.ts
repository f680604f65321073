import type { Command } from "commander";
import { AdminClient } from "../admin-client.js";
import { configPath, saveProfile, serverUrl, type Profile } from "../config-file.js";
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
        profile = { url, accessToken: answer.accessToken, username: o.username };
      } else {
        throw new CliError(EXIT.usage, "give --api-key (or TESSERA_API_KEY), or --username and --password");
      }
      const path = saveProfile(profile);
      process.stdout.write(`logged in to ${url}; profile saved to ${path}\n`);
    }));

  program.command("logout").description("forget the saved profile's credential").action(action(async () => {
    saveProfile({ url: "" });
    process.stdout.write(`credential removed from ${configPath()}\n`);
  }));
}
