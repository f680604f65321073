import { pino } from "pino";
import { IamError } from "../../../kit/src/errors.js";
import { PluginCalls } from "../../../kit/src/plugins/plugin-calls.js";
import { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";
import type { MapperInput, TesseraPlugin } from "../../../kit/src/plugins/plugin-api.js";
import { applyMappers, type ClaimsSubject, type MapperSpec } from "./claims-engine.js";
import { checkMapperConfig, checkMapperType, withTokenFlagDefaults } from "./mapper-rules.js";
import { pluginClaims } from "./plugin-claims.js";

const ALL = { "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true" };
const subject: ClaimsSubject = {
  id: "u-1", username: "ann", email: "ann@example.test", firstName: "Ann", lastName: "Lee", emailVerified: true,
  attributes: { department: ["sales"] }, realmRoles: ["r"], clientRoles: { app: ["reader"] }, groupPaths: ["/g"],
};
const client = { clientId: "app", webOrigins: [] };
const session = { realm: "acme", id: "sso-1", authTime: 1_767_225_600, requestedScopes: ["openid", "extra"], grantedScopes: ["extra"] };

const inputs: MapperInput[] = [];
const plugins = new PluginRegistry([
  { source: "a", plugin: { id: "dept", version: "1.0.0", kinds: ["protocol-mapper"], protocolMapper: {
    defaultClaimName: "dept", configKeys: ["prefix", "mode"], requiredConfigKeys: ["mode"],
    map: (i) => { inputs.push(i); return `${i.config.prefix ?? ""}${i.user.attributes.department?.[0]}@${i.client.clientId}`; },
  } } satisfies TesseraPlugin },
  { source: "b", plugin: { id: "roles", version: "1.0.0", kinds: ["protocol-mapper"], protocolMapper: { defaultClaimName: "groups", map: () => ["/p"] } } },
  { source: "c", plugin: { id: "broken", version: "1.0.0", kinds: ["protocol-mapper"], protocolMapper: { defaultClaimName: "b", map: () => { throw new Error("x"); } } } },
], new PluginCalls(100, pino({ level: "silent" })));

describe("plugin protocol mappers in the claims engine", () => {
  it("writes plugin claims in their place among the mappers, per token switch, and leaves a failed one out", async () => {
    const mappers: MapperSpec[] = [
      { mapperType: "oidc-group-membership-mapper", config: { ...ALL, "claim.name": "groups" } },
      { mapperType: "plugin:roles", config: { ...ALL } },
      { mapperType: "plugin:dept", config: { ...ALL, "id.token.claim": "false", prefix: "x-", mode: "m", "claim.name": "org.${client_id}" } },
      { mapperType: "plugin:broken", config: { ...ALL } },
      { mapperType: "plugin:unloaded", config: { ...ALL } },
    ];
    const computed = await pluginClaims(plugins, mappers, subject, client, session);
    expect(applyMappers(mappers, subject, client, computed)).toEqual({
      access: { groups: ["/g", "/p"], org: { app: "x-sales@app" } },
      id: { groups: ["/g", "/p"] },
      userinfo: { groups: ["/g", "/p"], org: { app: "x-sales@app" } },
      introspection: { groups: ["/g", "/p"], org: { app: "x-sales@app" } },
    });
    expect(inputs.at(-1)).toEqual({
      realm: "acme", client: { clientId: "app" }, session: { id: "sso-1", authTime: 1_767_225_600, requestedScopes: ["openid", "extra"], grantedScopes: ["extra"] },
      config: { ...ALL, "id.token.claim": "false", prefix: "x-", mode: "m", "claim.name": "org.${client_id}" },
      user: { id: "u-1", username: "ann", email: "ann@example.test", firstName: "Ann", lastName: "Lee", emailVerified: true,
        attributes: { department: ["sales"] }, realmRoles: ["r"], clientRoles: { app: ["reader"] }, groups: ["/g"] },
    });
  });

  it("computes nothing without plugins", async () => {
    expect((await pluginClaims(undefined, [{ mapperType: "plugin:dept", config: ALL }], subject, client, session)).size).toBe(0);
  });
});

describe("plugin mapper validation", () => {
  const invalid = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return [(e as IamError).field, e instanceof Error ? e.message : ""];
    }
    return undefined;
  };

  it("accepts plugin:<id> only for a loaded plugin's mapper", () => {
    expect(checkMapperType("plugin:dept", plugins)).toBe("plugin:dept");
    expect(invalid(() => checkMapperType("plugin:dept"))?.[0]).toBe("mapperType");
    expect(invalid(() => checkMapperType("plugin:nope", plugins))?.[1]).toMatch(/, plugin:dept, plugin:roles, plugin:broken$/);
  });

  it("accepts the token switches, claim.name and the plugin's keys, and requires its required ones", () => {
    const config = { prefix: "p", mode: "m", "claim.name": "a.b", "access.token.claim": "false" };
    expect(withTokenFlagDefaults("plugin:dept", checkMapperConfig("plugin:dept", config, plugins))).toEqual({
      ...config, "id.token.claim": "true", "userinfo.token.claim": "true", "introspection.token.claim": "true",
    });
    expect(invalid(() => checkMapperConfig("plugin:dept", { mode: "m", other: "1" }, plugins))).toEqual(["config.other", "config.other is not a setting of plugin:dept"]);
    expect(invalid(() => checkMapperConfig("plugin:dept", {}, plugins))).toEqual(["config.mode", "config.mode is required for plugin:dept"]);
    expect(invalid(() => checkMapperConfig("plugin:dept", { mode: "m", "claim.name": "nonce" }, plugins))).toEqual(["config.claim.name", `config.claim.name must not be the protocol claim "nonce"`]);
  });
});
