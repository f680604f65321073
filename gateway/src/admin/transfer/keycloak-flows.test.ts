import { clientFlowOverrides, convertFlows, flowBindings } from "./keycloak-flows.js";

type Json = Record<string, any>;
const exec = (authenticator: string, requirement = "REQUIRED", extra: Json = {}): Json => ({ authenticator, authenticatorFlow: false, requirement, ...extra });
const sub = (flowAlias: string, requirement: string): Json => ({ authenticatorFlow: true, requirement, flowAlias });
const flow = (alias: string, executions: Json[], extra: Json = {}): Json => ({ id: `id-${alias}`, alias, providerId: "basic-flow", topLevel: true, builtIn: false, authenticationExecutions: executions, ...extra });

function run(kc: Json, clientIds: string[] = []) {
  const report: Array<{ path: string; message: string }> = [];
  const converted = convertFlows(kc, new Set(clientIds), (path, message) => report.push({ path, message }));
  return { converted, report };
}

describe("convertFlows (Keycloak authenticationFlows as Tessera flows)", () => {
  it("maps a conditional role as a client role when the prefix names a client, else as a realm role; negate carries", () => {
    const { converted, report } = run({
      authenticationFlows: [
        flow("f", [exec("auth-username-password-form"), sub("f-cond", "CONDITIONAL")]),
        { ...flow("f-cond", [exec("conditional-user-role", "REQUIRED", { authenticatorConfig: "c" }), exec("auth-otp-form")]), topLevel: false },
        flow("g", [exec("auth-username-password-form"), sub("g-cond", "CONDITIONAL")]),
        { ...flow("g-cond", [exec("conditional-user-role", "REQUIRED", { authenticatorConfig: "r" }), exec("auth-otp-form")]), topLevel: false },
      ],
      authenticatorConfig: [{ alias: "c", config: { condUserRole: "my.app.admin", negate: "true" } }, { alias: "r", config: { condUserRole: "ops.lead" } }],
    }, ["my.app", "my"]);
    expect(report).toEqual([]);
    expect(converted.flows.map((f) => f.steps[1].steps[0].config)).toEqual([
      { role: "admin", clientId: "my.app", negate: "true" },
      { role: "ops.lead" },
    ]);
    expect([...converted.aliasById]).toEqual([["id-f", "f"], ["id-g", "g"]]);
  });

  it("keeps a redirector with a default provider, drops auth-cookie and a DISABLED step it has no equivalent for", () => {
    const { converted, report } = run({
      authenticationFlows: [flow("b", [exec("auth-cookie", "ALTERNATIVE"), exec("auth-spnego", "DISABLED"),
        exec("identity-provider-redirector", "ALTERNATIVE", { authenticatorConfig: "corp" }), exec("webauthn-authenticator-passwordless", "ALTERNATIVE")])],
      authenticatorConfig: [{ alias: "corp", config: { defaultProvider: "corp-oidc" } }],
    });
    expect(report).toEqual([]);
    expect(converted.flows[0]!.steps).toEqual([
      { type: "idp-redirector", requirement: "ALTERNATIVE", config: { alias: "corp-oidc" } },
      { type: "passkey", requirement: "ALTERNATIVE" },
    ]);
  });

  it("reports a flow whole, with the reason at its path, when a step has no equivalent or the result breaks the flow rules", () => {
    const { converted, report } = run({
      authenticationFlows: [
        flow("regex", [exec("auth-username-password-form"), sub("regex-cond", "CONDITIONAL")]),
        { ...flow("regex-cond", [exec("conditional-user-attribute", "REQUIRED", { authenticatorConfig: "rx" }), exec("deny-access-authenticator")]), topLevel: false },
        flow("nameless", [exec("auth-username-password-form"), sub("nameless-cond", "CONDITIONAL")]),
        { ...flow("nameless-cond", [exec("conditional-user-attribute", "REQUIRED", { authenticatorConfig: "grp" }), exec("deny-access-authenticator")]), topLevel: false },
        flow("otp only", [exec("auth-otp-form")]),
        flow("lost", [exec("auth-username-password-form"), sub("nowhere", "REQUIRED")]),
        flow("x509", [exec("auth-x509-client-username-form")]),
        flow("clients", [exec("client-secret", "ALTERNATIVE")], { providerId: "client-flow" }),
        flow("builtin", [exec("auth-cookie")], { builtIn: true }),
      ],
      authenticatorConfig: [
        { alias: "rx", config: { attribute_name: "kind", attribute_expected_value: ".+", regex: "true" } },
        { alias: "grp", config: { attribute_expected_value: "x", include_group_attributes: "true" } },
      ],
    });
    expect(converted.flows).toEqual([]);
    expect(report).toEqual([
      { path: "$.authenticationFlows[1].authenticationExecutions[0]", message: 'authentication flow "regex" is not carried over: its attribute condition matches a regular expression, which Tessera\'s compares exactly' },
      { path: "$.authenticationFlows[3].authenticationExecutions[0]", message: 'authentication flow "nameless" is not carried over: its attribute condition names no attribute' },
      { path: "$.authenticationFlows[4]", message: 'authentication flow "otp only" is not carried over: as converted, the flow can never succeed: no enabled step identifies the user (username-password, username, passkey or idp-redirector)' },
      { path: "$.authenticationFlows[5].authenticationExecutions[1]", message: 'authentication flow "lost" is not carried over: its sub-flow "nowhere" is not in the document' },
      { path: "$.authenticationFlows[6].authenticationExecutions[0]", message: 'authentication flow "x509" is not carried over: authenticator "auth-x509-client-username-form" has no equivalent step' },
      { path: "$.authenticationFlows[7]", message: 'authentication flow "clients" is a client-flow (client authentication): Tessera authenticates clients by their settings, not by a flow' },
    ]);
  });

  it("carries an attribute condition that includes group attributes, and its not", () => {
    const { converted, report } = run({
      authenticationFlows: [
        flow("groups", [exec("auth-username-password-form"), sub("groups-cond", "CONDITIONAL")]),
        { ...flow("groups-cond", [exec("conditional-user-attribute", "REQUIRED", { authenticatorConfig: "grp" }), exec("deny-access-authenticator")]), topLevel: false },
      ],
      authenticatorConfig: [{ alias: "grp", config: { attribute_name: "kind", attribute_expected_value: "x", include_group_attributes: "true", not: "true" } }],
    });
    expect(report).toEqual([]);
    expect(converted.flows[0]!.steps[1].steps[0]).toEqual({
      type: "condition-user-attribute", requirement: "REQUIRED", config: { attribute: "kind", value: "x", includeGroupAttributes: "true", negate: "true" },
    });
  });

  it("refuses sub-flows deeper than Tessera's four levels", () => {
    const nested = (n: number): Json[] => Array.from({ length: n }, (_, i) => ({
      ...flow(`l${i}`, i === n - 1 ? [exec("auth-username-password-form")] : [sub(`l${i + 1}`, "REQUIRED")]), topLevel: i === 0,
    }));
    expect(run({ authenticationFlows: nested(4) }).converted.flows.map((f) => f.alias)).toEqual(["l0"]);
    expect(run({ authenticationFlows: nested(5) }).report).toEqual([
      { path: "$.authenticationFlows[3].authenticationExecutions[0]", message: 'authentication flow "l0" is not carried over: its sub-flows nest deeper than Tessera\'s 4 levels' },
    ]);
  });
});

describe("flow bindings and client overrides", () => {
  const kc = { authenticationFlows: [flow("mine", [exec("auth-username-password-form")])] };
  const noted: Array<[string, string]> = [];
  const converted = convertFlows(kc, new Set(), (p, m) => noted.push([p, m]));

  it("binds the realm to a converted flow, keeps Keycloak's own as the built-ins, reports the rest", () => {
    const report: Array<[string, string]> = [];
    const out = flowBindings({ browserFlow: "mine", directGrantFlow: "gone", registrationFlow: "registration", firstBrokerLoginFlow: "my broker" }, converted, (p, m) => report.push([p, m]));
    expect(out).toEqual({ browserFlow: "mine" });
    expect(report).toEqual([
      ["$.directGrantFlow", 'flow "gone" is not carried over: the realm keeps Tessera\'s built-in "direct grant" flow'],
      ["$.firstBrokerLoginFlow", '"firstBrokerLoginFlow" ("my broker") has no equivalent: Tessera\'s first broker login is built in'],
    ]);
  });

  it("turns a client's overrides (flow ids) into aliases; an unknown flow or binding is reported", () => {
    const report: Array<[string, string]> = [];
    const out = clientFlowOverrides({ authenticationFlowBindingOverrides: { browser: "id-mine", direct_grant: "id-other", docker: "id-mine" } }, "$.clients[2]", converted, (p, m) => report.push([p, m]));
    expect(out).toEqual({ browserFlowOverride: "mine" });
    expect(report).toEqual([
      ["$.clients[2].authenticationFlowBindingOverrides.direct_grant", 'the overriding flow ("id-other") is not carried over: the client follows the realm\'s'],
      ["$.clients[2].authenticationFlowBindingOverrides.docker", 'the "docker" override has no equivalent'],
    ]);
    expect(noted).toEqual([]);
  });
});
