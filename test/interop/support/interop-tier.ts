import { startEmbeddedServer, type TestServer } from "../../e2e/support/embedded-server.js";
import { provisionInteropRealm, type InteropRealm } from "./interop-realm.js";
import { describeTier } from "../../support/tier.js";

/**
 * One language's interop tier as a jest suite: when `variable` is unset, skipped and named in the
 * closing summary (describeTier); otherwise an embedded Tessera
 * with the interop realm, and one test, `run`, given the command the variable names and the
 * realm's settings for the program.
 */
export function describeInteropTier(opts: {
  title: string; variable: string; name: string; it: string;
  run: (command: string, realm: InteropRealm) => Promise<void>;
}): void {
  describeTier(opts.title, [opts.variable], () => {
    const command = process.env[opts.variable] as string;
    let server: TestServer;
    let realm: InteropRealm;

    beforeAll(async () => {
      server = await startEmbeddedServer(opts.name);
      realm = await provisionInteropRealm(server, opts.name);
    }, 120_000);
    afterAll(async () => server?.stop());

    it(opts.it, () => opts.run(command, realm), 300_000);
  });
}
