import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../e2e/support/process-runner.js";

// The protos are the gRPC SDKs' public contract (docs/sdks.md): they keep buf's STANDARD lint
// rules (buf.yaml), such as one request and one response message per RPC named after it, so a
// later RPC can change its messages without changing another's.
describe("proto/ under buf lint", () => {
  it("has no finding", () => {
    const buf = join(ROOT, "node_modules", ".bin", "buf");
    const r = spawnSync(buf, ["lint"], { cwd: ROOT, encoding: "utf8" });
    expect([r.status, r.stdout.trim(), r.stderr.trim()]).toEqual([0, "", ""]);
  }, 60_000);
});
