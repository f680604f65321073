import { SAML } from "@node-saml/node-saml";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { IamError } from "../../../kit/src/errors.js";
import { parseSamlXml } from "./saml-xml.js";
import { verifyPostSignature } from "./post-signature.js";
import { verifyRedirectSignature } from "./redirect-signature.js";
import { parseRawQuery } from "./saml-decode.js";
import { formField, spCredentials } from "./sso-test-harness.js";

const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
const creds = spCredentials("unit");

async function signedXml(): Promise<string> {
  const saml = new SAML({
    entryPoint: "https://idp.example.test/sso", issuer: "urn:sp:unit", callbackUrl: "https://sp.example.test/acs", idpCert: creds.certificate,
    privateKey: creds.privateKey, signatureAlgorithm: "sha256", digestAlgorithm: "sha256", authnRequestBinding: "HTTP-POST", skipRequestCompression: true,
  });
  return Buffer.from(formField(await saml.getAuthorizeFormAsync(""), "SAMLRequest"), "base64").toString();
}

function reason(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof IamError ? e.reason : String(e);
  }
  return undefined;
}

describe("enveloped signature checks (SAML 2.0 core 5.4) and XSW defences", () => {
  it("returns the signed root, read from the signed octets", async () => {
    const xml = await signedXml();
    const root = verifyPostSignature(xml, parseSamlXml(xml), creds.certificate);
    expect(root.localName).toBe("AuthnRequest");
    expect(root.getAttribute("AssertionConsumerServiceURL")).toBe("https://sp.example.test/acs");
  });

  it("refuses the signed element moved under Extensions with an unsigned root (XSW), whatever its ID", async () => {
    const xml = await signedXml();
    for (const rootId of ["_forged", null]) {
      const signed = new DOMParser().parseFromString(xml, "text/xml").documentElement!;
      const forged = new DOMParser().parseFromString(xml, "text/xml").documentElement!;
      if (rootId) forged.setAttribute("ID", rootId);
      forged.setAttribute("AssertionConsumerServiceURL", "https://attacker.example.test/acs");
      forged.removeChild(forged.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature")[0]!);
      const ext = forged.ownerDocument!.createElementNS(PROTOCOL, "samlp:Extensions");
      ext.appendChild(forged.ownerDocument!.importNode(signed, true));
      forged.appendChild(ext);
      const wrapped = new XMLSerializer().serializeToString(forged);
      expect(reason(() => verifyPostSignature(wrapped, parseSamlXml(wrapped), creds.certificate))).toBe("invalid_saml_signature");
    }
  });

  it("refuses a signature by another key", async () => {
    const xml = await signedXml();
    expect(reason(() => verifyPostSignature(xml, parseSamlXml(xml), spCredentials("other").certificate))).toBe("invalid_saml_signature");
  });

  it("refuses SHA-1 in the Redirect binding", () => {
    const q = "SAMLRequest=abc&SigAlg=http%3A%2F%2Fwww.w3.org%2F2000%2F09%2Fxmldsig%23rsa-sha1&Signature=AAAA";
    expect(reason(() => verifyRedirectSignature("SAMLRequest", parseRawQuery(q), creds.certificate))).toBe("unsupported_signature_algorithm");
  });
});
