import { randomUUID } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { createRequire } from "node:module";
import { SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import samlify from "samlify";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { SamlBinding } from "../../../../gen/iam/saml/v1/sso_pb.js";
import { UserRepository } from "../../../directory/src/store/user-repository.js";
import { PUBLIC_URL, expectReason, formField, spCredentials, startHarness, type Harness } from "./sso-test-harness.js";

const require = createRequire(import.meta.url);
const { validate } = require("@authenio/samlify-xmllint-wasm") as { validate: (xml: string) => Promise<boolean> };

const realm = "hostile";
const ENDPOINT = `${PUBLIC_URL}/realms/${realm}/protocol/saml`;
const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

describe("SAML SSO: hostile requests and a samlify SP", () => {
  let h: Harness;
  let idpCert: string;
  let userId: string;
  const creds = spCredentials("sp-post");

  beforeAll(async () => {
    h = await startHarness();
    await h.realms.createRealm({ realm: { name: realm } });
    userId = (await h.users.createUser({ realm, user: { username: "bob", email: "bob@example.test" } })).user!.id;
    await h.sps.registerServiceProvider({ realm, serviceProvider: {
      entityId: "urn:sp:post", name: "Post SP", acsUrl: "https://sp.example.test/acs", certificate: creds.certificate,
    } });
    idpCert = (await h.idp.listSigningKeys({ realm })).keys[0]!.certificate;
  });
  afterAll(async () => h.close());

  const postSp = () => new SAML({
    entryPoint: ENDPOINT, issuer: "urn:sp:post", callbackUrl: "https://sp.example.test/acs", idpCert, audience: "urn:sp:post",
    privateKey: creds.privateKey, publicCert: creds.certificate, signatureAlgorithm: "sha256", digestAlgorithm: "sha256",
    authnRequestBinding: "HTTP-POST", skipRequestCompression: true, validateInResponseTo: ValidateInResponseTo.always,
  });
  const signedPostXml = async (saml = postSp()) =>
    Buffer.from(formField(await saml.getAuthorizeFormAsync("rs"), "SAMLRequest"), "base64").toString("utf8");
  const post = (xml: string) => h.sso.beginSso({ realm, binding: SamlBinding.POST, samlRequest: b64(xml) });

  it("refuses DOCTYPE / external entities", async () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]>`
      + `<samlp:AuthnRequest xmlns:samlp="${PROTOCOL}" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_x" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>&e;</saml:Issuer></samlp:AuthnRequest>`;
    await expectReason(post(xml), "saml_doctype_forbidden");
  });

  it("refuses an oversized deflate payload without inflating it all", async () => {
    const bomb = deflateRawSync(Buffer.alloc(2 * 1024 * 1024, 0x20)).toString("base64");
    const p = h.sso.beginSso({ realm, binding: SamlBinding.REDIRECT, samlRequest: bomb });
    await expectReason(p, "oversized_saml_request");
    await expect(p).rejects.toThrow(/oversized deflate payload/);
  });

  it("refuses signature wrapping and tampering of a signed POST request", async () => {
    const original = await signedPostXml();
    // XSW: the signed request moved under Extensions, an unsigned forgery (other ACS) at the root.
    const doc = new DOMParser().parseFromString(original, "text/xml");
    const signed = doc.documentElement!;
    const forged = new DOMParser().parseFromString(original, "text/xml").documentElement!;
    forged.setAttribute("ID", "_forged");
    forged.setAttribute("AssertionConsumerServiceURL", "https://attacker.example.test/acs");
    const sig = forged.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature")[0]!;
    forged.removeChild(sig);
    const ext = forged.ownerDocument!.createElementNS(PROTOCOL, "samlp:Extensions");
    ext.appendChild(forged.ownerDocument!.importNode(signed, true));
    forged.insertBefore(ext, forged.getElementsByTagNameNS(PROTOCOL, "NameIDPolicy")[0] ?? null);
    const wrapped = new XMLSerializer().serializeToString(forged);
    await expect(post(wrapped)).rejects.toThrow(/signature|schema|Signature/);

    // Same ID at the root, values changed, signature kept: the digest no longer matches.
    const tampered = original.replace('AssertionConsumerServiceURL="https://sp.example.test/acs"', 'AssertionConsumerServiceURL="https://sp.example.test/acs2"');
    expect(tampered).not.toBe(original);
    await expectReason(post(tampered), "invalid_saml_signature");
    // The untouched request passes.
    await expect(post(original)).resolves.toMatchObject({ spName: "Post SP" });
  });

  it("NameID with comment-looking text: the SP reads back the exact string", async () => {
    const users = await UserRepository.open(h.store);
    const realmId = (await h.realms.getRealm({ name: realm })).realm!.id;
    const id = randomUUID();
    const email = "alice@example.test<!---->.evil.test";
    await users.insert({
      _id: id, realmId, username: "mallory", usernameKey: "mallory", email, emailKey: email.toLowerCase(), firstName: "<b>x</b>&amp;",
      lastName: "", enabled: true, emailVerified: true, requirePasswordReset: false, serviceAccountClientId: "", attributes: {},
      createdAt: Date.now(), updatedAt: Date.now(),
    });
    await h.sps.updateServiceProvider({ realm, id: (await h.sps.listServiceProviders({ realm })).serviceProviders[0]!.id,
      serviceProvider: { attributeStatements: { given: "firstName" }, attributeStatementsPresent: true } });
    const saml = postSp();
    const begun = await post(await signedPostXml(saml));
    const done = await h.sso.completeSso({ realm, pendingId: begun.pendingId, userId: id, sessionIndex: "s-c" });
    expect(Buffer.from(done.samlResponse, "base64").toString()).not.toContain("<!---->");
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: done.samlResponse });
    expect(profile!.nameID).toBe(email);
    expect(profile!["given"]).toBe("<b>x</b>&amp;");
  });

  it("samlify as a second SP: unsigned Redirect request, persistent pairwise NameID", async () => {
    samlify.setSchemaValidator({ validate });
    await h.sps.registerServiceProvider({ realm, serviceProvider: {
      entityId: "urn:sp:samlify", name: "Samlify SP", acsUrl: "https://sp2.example.test/acs",
      nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent", attributeStatements: { mail: "email" },
    } });
    const idp = samlify.IdentityProvider({ metadata: (await h.idp.getMetadata({ realm })).xml });
    const sp = samlify.ServiceProvider({
      entityID: "urn:sp:samlify", wantAssertionsSigned: true, wantMessageSigned: true,
      assertionConsumerService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST", Location: "https://sp2.example.test/acs" }],
    });
    const nameIds: string[] = [];
    for (const session of ["s-1", "s-2"]) {
      const { context } = sp.createLoginRequest(idp, "redirect") as { context: string };
      const url = new URL(context);
      const begun = await h.sso.beginSso({ realm, binding: SamlBinding.REDIRECT, rawQuery: url.search.slice(1) });
      const done = await h.sso.completeSso({ realm, pendingId: begun.pendingId, userId, sessionIndex: session });
      const { extract } = await sp.parseLoginResponse(idp, "post", { body: { SAMLResponse: done.samlResponse } });
      expect(extract.attributes?.mail).toBe("bob@example.test");
      expect(extract.audience).toBe("urn:sp:samlify");
      nameIds.push(String(extract.nameID));
    }
    expect(nameIds[0]).toBe(nameIds[1]);
    expect(nameIds[0]).not.toContain(userId);
  });
});
