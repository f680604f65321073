// Creates a realm on a Tessera directory service over gRPC, reads it back and prints it as JSON.
//
//   TESSERA_DIRECTORY_URL=http://127.0.0.1:50051 TESSERA_API_KEY=tsk_... node create-realm.js acme
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createTesseraTransport, errorDetail } from "../src/index.js";
import { RealmService } from "../src/gen/iam/directory/v1/realm_pb.js";

const [name] = process.argv.slice(2);
const baseUrl = process.env.TESSERA_DIRECTORY_URL;
const apiKey = process.env.TESSERA_API_KEY;
if (!name || !baseUrl || !apiKey) {
  process.stderr.write("usage: TESSERA_DIRECTORY_URL=<url> TESSERA_API_KEY=<admin API key> create-realm <name>\n");
  process.exit(64);
}

const realms = createClient(RealmService, createTesseraTransport({ baseUrl, apiKey }));
try {
  await realms.createRealm({ realm: { name, displayName: "Created over gRPC (TypeScript)" } }, { timeoutMs: 10_000 });
  const { realm } = await realms.getRealm({ name }, { timeoutMs: 10_000 });
  process.stdout.write(`${JSON.stringify({
    id: realm?.id, name: realm?.name, displayName: realm?.displayName,
    enabled: realm?.enabled, accessTokenLifespan: realm?.accessTokenLifespan,
  })}\n`);
} catch (e) {
  // The status code, the service's message and, when it named them, the reason and field.
  const err = ConnectError.from(e);
  const detail = errorDetail(err);
  const extra = detail ? ` (reason ${detail.reason}${detail.field ? `, field ${detail.field}` : ""})` : "";
  process.stderr.write(`${Code[err.code]}: ${err.rawMessage}${extra}\n`);
  process.exitCode = 1;
}
