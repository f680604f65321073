import { SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import { SamlBinding } from "../../../../gen/iam/saml/v1/sso_pb.js";
import { loginEventSubject } from "../../../kit/src/events/login-events.js";
import { PUBLIC_URL, expectReason, formField, spCredentials, startHarness, type Harness } from "./sso-test-harness.js";

const realm = "sso";
const ENDPOINT = `${PUBLIC_URL}/realms/${realm}/protocol/saml`;
const EMAIL = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";


describe("SAML SSO with node-saml as the SP", () => {
  let h: Harness;
  let idpCert: string;
  let userId: string;
  const creds = spCredentials("sp-node");
  const events: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    await h.realms.createRealm({ realm: { name: realm, eventsEnabled: true } });
    const user = await h.users.createUser({ realm, user: { username: "alice", email: "alice@example.test", firstName: "Alice", lastName: "<b>x</b>&amp;" } });
    userId = user.user!.id;
    await h.roles.createRole({ realm, clientId: "", role: { name: "admin" } });
    await h.roles.assignRoleMappings({ realm, holderType: 1, holderId: userId, clientId: "", roleNames: ["admin"] });
    const g = await h.groups.createGroup({ realm, group: { name: "eng" } });
    await h.groups.addUserToGroup({ realm, userId, groupId: g.group!.id });
    await h.sps.registerServiceProvider({ realm, serviceProvider: {
      entityId: "urn:sp:node", name: "Node SP", acsUrl: "https://sp.example.test/acs", sloUrl: "https://sp.example.test/slo",
      certificate: creds.certificate, attributeStatements: { mail: "email", sn: "lastName", memberOf: "groups", roles: "roles" },
    } });
    idpCert = (await h.idp.listSigningKeys({ realm })).keys[0]!.certificate;
    await h.bus.subscribe({ durable: "t", subject: loginEventSubject("saml") }, async (m) => { events.push(m.id); });
  });
  afterAll(async () => h.close());

  function sp(binding: "HTTP-Redirect" | "HTTP-POST" = "HTTP-Redirect") {
    return new SAML({
      entryPoint: ENDPOINT, issuer: "urn:sp:node", callbackUrl: "https://sp.example.test/acs", idpCert,
      privateKey: creds.privateKey, publicCert: creds.certificate, signatureAlgorithm: "sha256", digestAlgorithm: "sha256",
      audience: "urn:sp:node", wantAssertionsSigned: true, wantAuthnResponseSigned: true,
      validateInResponseTo: ValidateInResponseTo.always, authnRequestBinding: binding, skipRequestCompression: binding === "HTTP-POST", identifierFormat: EMAIL,
      logoutUrl: ENDPOINT, logoutCallbackUrl: "https://sp.example.test/slo", idpIssuer: `${PUBLIC_URL}/realms/${realm}`,
    });
  }

  async function redirectRequest(saml: SAML, relay = "rs-1") {
    const url = new URL(await saml.getAuthorizeUrlAsync(relay, undefined, {}));
    return { binding: SamlBinding.REDIRECT, samlRequest: url.searchParams.get("SAMLRequest")!, rawQuery: url.search.slice(1) };
  }

  it("Redirect binding, signed request: node-saml accepts the signed Response with exact values", async () => {
    const saml = sp();
    const begun = await h.sso.beginSso({ realm, ...(await redirectRequest(saml)) });
    expect(begun).toMatchObject({ spName: "Node SP", forceAuthn: false });
    const done = await h.sso.completeSso({ realm, pendingId: begun.pendingId, userId, sessionIndex: "sess-1" });
    expect(done.acsUrl).toBe("https://sp.example.test/acs");
    expect(done.relayState).toBe("rs-1");
    const { profile, loggedOut } = await saml.validatePostResponseAsync({ SAMLResponse: done.samlResponse });
    expect(loggedOut).toBe(false);
    expect(profile!.nameID).toBe("alice@example.test");
    expect(profile!.sessionIndex).toBe("sess-1");
    expect(profile!["sn"]).toBe("<b>x</b>&amp;");
    expect(profile!["memberOf"]).toBe("/eng");
    expect(profile!["roles"]).toBe("admin");
    // Consumed once.
    await expectReason(h.sso.completeSso({ realm, pendingId: begun.pendingId, userId, sessionIndex: "sess-1" }), "saml_pending_not_found");
    // The LOGIN is the token service's, recorded when the login established the session: none here.
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual([]);
  });

  it("POST binding, enveloped-signed request", async () => {
    const saml = sp("HTTP-POST");
    const form = await saml.getAuthorizeFormAsync("rs-post");
    const begun = await h.sso.beginSso({ realm, binding: SamlBinding.POST, samlRequest: formField(form, "SAMLRequest"), relayState: "rs-post" });
    const done = await h.sso.completeSso({ realm, pendingId: begun.pendingId, userId, sessionIndex: "sess-2" });
    expect(done.relayState).toBe("rs-post");
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: done.samlResponse });
    expect(profile!.nameID).toBe("alice@example.test");
  });

  it("refuses a replayed request, a tampered signature and a stale IssueInstant", async () => {
    const saml = sp();
    const req = await redirectRequest(saml);
    await h.sso.beginSso({ realm, ...req });
    await expectReason(h.sso.beginSso({ realm, ...req }), "saml_request_replayed");

    const fresh = await redirectRequest(saml);
    const tampered = fresh.rawQuery.replace(/RelayState=[^&]*/, "RelayState=evil");
    await expectReason(h.sso.beginSso({ realm, binding: SamlBinding.REDIRECT, rawQuery: tampered }), "invalid_saml_signature");

    const unsigned = new URL(await new SAML({ entryPoint: ENDPOINT, issuer: "urn:sp:node", callbackUrl: "https://sp.example.test/acs", idpCert }).getAuthorizeUrlAsync("", undefined, {}));
    await expectReason(h.sso.beginSso({ realm, binding: SamlBinding.REDIRECT, rawQuery: unsigned.search.slice(1) }), "saml_signature_required");

    const stale = await redirectRequest(saml);
    h.clock.offset = 6 * 60_000;
    try {
      await expectReason(h.sso.beginSso({ realm, ...stale }), "saml_request_expired");
    } finally {
      h.clock.offset = 0;
    }
  });

  it("refuses an ACS URL other than the registered one and an unknown issuer", async () => {
    const other = new SAML({
      entryPoint: ENDPOINT, issuer: "urn:sp:node", callbackUrl: "https://attacker.example.test/acs", idpCert,
      privateKey: creds.privateKey, signatureAlgorithm: "sha256",
    });
    await expectReason(h.sso.beginSso({ realm, ...(await redirectRequest(other)) }), "acs_mismatch");
    const ghost = new SAML({ entryPoint: ENDPOINT, issuer: "urn:sp:ghost", callbackUrl: "https://sp.example.test/acs", idpCert });
    await expectReason(h.sso.beginSso({ realm, ...(await redirectRequest(ghost)) }), "unknown_service_provider");
  });

  it("single logout round trip: SP-initiated LogoutRequest, IdP's signed LogoutResponse accepted by node-saml", async () => {
    const saml = sp();
    const begun = await h.sso.beginSso({ realm, ...(await redirectRequest(saml)) });
    const done = await h.sso.completeSso({ realm, pendingId: begun.pendingId, userId, sessionIndex: "sess-slo" });
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: done.samlResponse });
    const logoutUrl = new URL(await saml.getLogoutUrlAsync(profile!, "bye", {}));
    const slo = await h.sso.beginSlo({ realm, binding: SamlBinding.REDIRECT, rawQuery: logoutUrl.search.slice(1) });
    expect(slo).toMatchObject({ sessionIndex: "sess-slo", userId, spEntityId: "urn:sp:node", wasResponse: false, signed: true });
    const back = new URL(slo.logoutResponse!.redirectUrl);
    expect(back.origin + back.pathname).toBe("https://sp.example.test/slo");
    const query = Object.fromEntries(back.searchParams);
    const result = await saml.validateRedirectAsync(query, back.search.slice(1));
    expect(result.loggedOut).toBe(true);

    // Validating ends nothing (the gateway ends the SSO session, then drops the SAML records): a
    // crash before that leaves the SP's retry, a new LogoutRequest, the session to end.
    const retry = new URL(await saml.getLogoutUrlAsync(profile!, "bye", {}));
    expect(await h.sso.beginSlo({ realm, binding: SamlBinding.REDIRECT, rawQuery: retry.search.slice(1) }))
      .toMatchObject({ sessionIndex: "sess-slo", userId, spEntityId: "urn:sp:node" });
    // The records go with the propagation, the initiator told nothing; then nothing is left.
    expect((await h.sso.buildLogoutRequests({ realm, sessionIndex: "sess-slo", exceptSpId: slo.logoutResponse!.spId })).logoutRequests).toEqual([]);
    expect((await h.sso.buildLogoutRequests({ realm, sessionIndex: "sess-slo" })).logoutRequests).toEqual([]);
    const gone = new URL(await saml.getLogoutUrlAsync(profile!, "bye", {}));
    expect(await h.sso.beginSlo({ realm, binding: SamlBinding.REDIRECT, rawQuery: gone.search.slice(1) })).toMatchObject({ sessionIndex: "", userId: "" });
  });

  it("IdP-initiated logout: a signed LogoutRequest node-saml validates", async () => {
    const saml = sp();
    const begun = await h.sso.beginSso({ realm, ...(await redirectRequest(saml)) });
    await h.sso.completeSso({ realm, pendingId: begun.pendingId, userId, sessionIndex: "sess-idp" });
    const { logoutRequests } = await h.sso.buildLogoutRequests({ realm, sessionIndex: "sess-idp" });
    expect(logoutRequests).toHaveLength(1);
    const url = new URL(logoutRequests[0]!.redirectUrl);
    const result = await saml.validateRedirectAsync(Object.fromEntries(url.searchParams), url.search.slice(1));
    expect(result.loggedOut).toBe(true);
    expect(result.profile!.nameID).toBe("alice@example.test");
    expect(result.profile!.sessionIndex).toBe("sess-idp");
  });
});
