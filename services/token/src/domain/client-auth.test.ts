import { createHash } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import { ClientAuth } from "./client-auth.js";
import type { ClientCredentials, ClientDirectory } from "./client-directory.js";

/** ClientAuth over a stand-in ClientDirectory: the unit is the secret check and when it answers at once. */
function setup() {
  const salt = Buffer.from("salt");
  const credentials = (clientType: "CONFIDENTIAL" | "PUBLIC", enabled = true): ClientCredentials => ({
    info: { clientId: "app", clientType, enabled, tokenEndpointAuthMethod: clientType === "PUBLIC" ? "none" : "client_secret_basic" } as ClientCredentials["info"],
    verifier: clientType === "PUBLIC" ? undefined : { salt, digest: createHash("sha256").update(salt).update("s3cret", "utf8").digest() },
  });
  const cached = new Map<string, ClientCredentials>();
  const stored = new Map<string, ClientCredentials>();
  const directory = {
    cachedCredentials: (_realm: string, clientId: string) => cached.get(clientId),
    credentials: async (_realm: string, clientId: string) => stored.get(clientId) ?? null,
  } as unknown as ClientDirectory;
  return { auth: new ClientAuth(directory), cached, stored, credentials };
}

function oauthErrorOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof IamError ? e.oauthError : "not an IamError";
  }
  return undefined;
}

describe("ClientAuth", () => {
  it("refuses the secret of a client registered for a JWT method (OIDC Core 1.0 section 9)", () => {
    const { auth, cached, credentials } = setup();
    const c = credentials("CONFIDENTIAL");
    cached.set("app", { ...c, info: { ...c.info, tokenEndpointAuthMethod: "private_key_jwt" } });
    expect(oauthErrorOf(() => auth.authenticate("r", { clientId: "app", clientSecret: "s3cret" }))).toBe("invalid_client");
  });

  it("answers at once, not as a promise, when the client's credentials are cached", () => {
    const { auth, cached, credentials } = setup();
    cached.set("app", credentials("CONFIDENTIAL"));
    const client = auth.authenticate("r", { clientId: "app", clientSecret: "s3cret" });
    expect(client).not.toBeInstanceOf(Promise);
    expect(client).toMatchObject({ clientId: "app" });
    expect(oauthErrorOf(() => auth.authenticate("r", { clientId: "app", clientSecret: "wrong" }))).toBe("invalid_client");
    expect(oauthErrorOf(() => auth.authenticate("r", { clientId: "app", clientSecret: "" }))).toBe("invalid_client");
  });

  it("reads the directory otherwise, with the same rules", async () => {
    const { auth, stored, credentials } = setup();
    stored.set("app", credentials("CONFIDENTIAL"));
    const pending = auth.authenticate("r", { clientId: "app", clientSecret: "s3cret" });
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).resolves.toMatchObject({ clientId: "app" });
    await expect(auth.authenticate("r", { clientId: "app", clientSecret: "wrong" })).rejects.toMatchObject({ oauthError: "invalid_client" });
    await expect(auth.authenticate("r", { clientId: "nobody", clientSecret: "s3cret" })).rejects.toMatchObject({ oauthError: "invalid_client" });
    stored.set("off", { ...credentials("CONFIDENTIAL"), info: { ...credentials("CONFIDENTIAL").info, clientId: "off", enabled: false } });
    await expect(auth.authenticate("r", { clientId: "off", clientSecret: "s3cret" })).rejects.toMatchObject({ oauthError: "invalid_client" });
  });

  it("a PUBLIC client authenticates with its id alone and may not send a secret; no client id is refused", () => {
    const { auth, cached, credentials } = setup();
    cached.set("app", credentials("PUBLIC"));
    expect(auth.authenticate("r", { clientId: "app", clientSecret: "" })).toMatchObject({ clientId: "app" });
    expect(oauthErrorOf(() => auth.authenticate("r", { clientId: "app", clientSecret: "x" }))).toBe("invalid_client");
    expect(oauthErrorOf(() => auth.authenticate("r", { clientId: "", clientSecret: "" }))).toBe("invalid_client");
  });
});
