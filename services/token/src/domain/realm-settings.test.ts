import pino from "pino";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { createDirectTransport } from "../../../kit/src/rpc/direct-transport.js";
import { serverInterceptor } from "../../../kit/src/rpc/server-interceptor.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import { RealmSettings } from "./realm-settings.js";

/** RealmSettings against a directory RealmService over the embedded (in-memory Connect) transport. */
function setup() {
  const realms = new Map<string, { enabled: boolean; accessTokenLifespan: number }>();
  const reads: string[] = [];
  const transport = createDirectTransport((r) => r.service(RealmService, {
    getRealm(req) {
      reads.push(req.name);
      const realm = realms.get(req.name);
      if (!realm) throw IamError.notFound("realm", "realm_not_found");
      return { realm: { id: `id-${req.name}`, name: req.name, ...realm } };
    },
  }), { serverInterceptors: [serverInterceptor("directory", pino({ level: "silent" }))] });
  const clock = new TestClock();
  return { settings: new RealmSettings(transport, clock), realms, reads, clock };
}

describe("RealmSettings", () => {
  it("reads a realm once per 5 s, with the spec's default lifespans where the directory sends none", async () => {
    const { settings, realms, reads, clock } = setup();
    realms.set("acme", { enabled: true, accessTokenLifespan: 60 });
    expect(await settings.find("acme")).toMatchObject({
      id: "id-acme", name: "acme", enabled: true, accessTokenLifespan: 60, refreshTokenLifespan: 1800, offlineTokenLifespan: 2_592_000,
    });
    clock.advance(4_999);
    await settings.find("acme");
    clock.advance(1);
    await settings.find("acme");
    expect(reads).toEqual(["acme", "acme"]);
  });

  it("never caches an unknown realm: one created a moment later serves at once", async () => {
    const { settings, realms, reads } = setup();
    await expect(settings.publicRealm("new")).rejects.toMatchObject({ code: "notFound", reason: "realm_not_found" });
    realms.set("new", { enabled: true, accessTokenLifespan: 300 });
    await expect(settings.publicRealm("new")).resolves.toMatchObject({ name: "new" });
    expect(reads).toEqual(["new", "new"]);
  });

  it("serves a disabled realm to the Admin API only, and drops it on invalidate", async () => {
    const { settings, realms, reads } = setup();
    realms.set("off", { enabled: false, accessTokenLifespan: 300 });
    await expect(settings.adminRealm("off")).resolves.toMatchObject({ enabled: false });
    await expect(settings.publicRealm("off")).rejects.toMatchObject({ reason: "realm_not_found" });
    realms.set("off", { enabled: true, accessTokenLifespan: 300 });
    settings.invalidate("off");
    await expect(settings.publicRealm("off")).resolves.toMatchObject({ enabled: true });
    settings.invalidate();
    await settings.find("off");
    expect(reads).toEqual(["off", "off", "off"]);
  });
});
