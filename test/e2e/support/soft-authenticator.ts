import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import {
  bitString, boolean, explicit, octetString, oid, sequence, set, smallInteger, time, unsignedInteger, utf8String,
} from "../../../services/saml/src/domain/der.js";

/** What a registration's attestation statement holds (WebAuthn section 8). */
export type AttestationKind = "none" | "packed-self" | "packed-full";

export interface RegisterOptions {
  /** The UV flag (section 6.1); true unless said otherwise. */
  userVerified?: boolean;
  attestation?: AttestationKind;
  attachment?: "platform" | "cross-platform";
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
}

/**
 * A software authenticator holding one ES256 credential: a stand-in for a browser's, which the
 * Chromium tier drives through a CDP virtual authenticator (passkeys-browser.e2e.test.ts). The
 * virtual authenticator has no say in its AAGUID, its attestation statement or its UV flag per
 * ceremony, which the policy tests need; this one builds authenticator data and attestation
 * objects as WebAuthn Level 2 sections 6.1, 6.5 and 8.2 describe, CBOR-encoded by the library
 * the server verifies with. Its "packed" full attestation is signed by a certificate it makes
 * itself.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(32).toString("base64url");
  private readonly key: KeyObject;
  /** The COSE_Key (RFC 9053 section 7.1.1, EC2 P-256, ES256), CBOR-encoded by hand: a map of five. */
  readonly publicKey: string;

  constructor(readonly aaguid = "00000000-0000-0000-0000-000000000000") {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.key = pair.privateKey;
    const jwk = pair.publicKey.export({ format: "jwk" });
    const x = Buffer.from(jwk.x!, "base64url");
    const y = Buffer.from(jwk.y!, "base64url");
    this.publicKey = Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y,
    ]).toString("base64url");
  }

  /** RegistrationResponseJSON for `options` (the page's PublicKeyCredentialCreationOptionsJSON). */
  register(options: CreationOptions, origin: string, o: RegisterOptions = {}): string {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const credId = Buffer.from(this.credentialId, "base64url");
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credId.length);
    // Flags UP, UV (unless refused), AT: attested credential data follows (section 6.5.1).
    const flags = 0x01 | (o.userVerified === false ? 0 : 0x04) | 0x40;
    const authData = Buffer.concat([
      createHash("sha256").update(rpId).digest(), Buffer.from([flags]), Buffer.alloc(4),
      Buffer.from(this.aaguid.replace(/-/g, ""), "hex"), idLength, credId, Buffer.from(this.publicKey, "base64url"),
    ]);
    const clientData = Buffer.from(JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false }));
    const signed = Buffer.concat([authData, createHash("sha256").update(clientData).digest()]);
    const kind = o.attestation ?? "none";
    let fmt = "none";
    const attStmt = new Map<string, unknown>();
    if (kind === "packed-self") {
      fmt = "packed";
      attStmt.set("alg", -7).set("sig", new Uint8Array(sign("sha256", signed, this.key)));
    } else if (kind === "packed-full") {
      fmt = "packed";
      const { cert, key } = attestationCertificate();
      attStmt.set("alg", -7).set("sig", new Uint8Array(sign("sha256", signed, key))).set("x5c", [cert]);
    }
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", fmt], ["attStmt", attStmt], ["authData", new Uint8Array(authData)]]) as never);
    return JSON.stringify({
      id: this.credentialId, rawId: this.credentialId, type: "public-key", clientExtensionResults: {},
      ...(o.attachment ? { authenticatorAttachment: o.attachment } : {}),
      response: {
        clientDataJSON: clientData.toString("base64url"), attestationObject: Buffer.from(attestationObject).toString("base64url"),
        transports: ["usb"],
      },
    });
  }

  /** AuthenticationResponseJSON for `options` (the page's PublicKeyCredentialRequestOptionsJSON). */
  assert(options: { challenge: string; rpId: string }, origin: string, counter: number, userId: string, userVerified = true): string {
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    // rpIdHash, flags UP (and UV), signCount (section 6.1).
    const authData = Buffer.concat([createHash("sha256").update(options.rpId).digest(), Buffer.from([userVerified ? 0x05 : 0x01]), counterBytes]);
    const clientData = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }));
    const signature = sign("sha256", Buffer.concat([authData, createHash("sha256").update(clientData).digest()]), this.key);
    return JSON.stringify({
      id: this.credentialId, rawId: this.credentialId, type: "public-key", clientExtensionResults: {}, authenticatorAttachment: "platform",
      response: {
        authenticatorData: authData.toString("base64url"), clientDataJSON: clientData.toString("base64url"),
        signature: signature.toString("base64url"), userHandle: Buffer.from(userId, "utf8").toString("base64url"),
      },
    });
  }
}

/**
 * A batch attestation certificate (section 8.2.1: X.509 v3; subject C, O, OU "Authenticator
 * Attestation", CN; basic constraints CA false), ECDSA P-256 signed by its own key: no trust anchor
 * is configured, so none is checked. DER-built with the SAML service's encoder (der.ts).
 */
function attestationCertificate(): { cert: Uint8Array; key: KeyObject } {
  const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ecdsaWithSha256 = sequence(oid("1.2.840.10045.4.3.2"));
  const rdn = (type: string, value: string) => set(sequence(oid(type), utf8String(value)));
  const name = sequence(rdn("2.5.4.6", "SE"), rdn("2.5.4.10", "Tessera Tests"), rdn("2.5.4.11", "Authenticator Attestation"), rdn("2.5.4.3", "Soft Authenticator"));
  const serial = randomBytes(8);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const now = Date.now();
  const tbs = sequence(
    explicit(0, smallInteger(2)), unsignedInteger(serial), ecdsaWithSha256, name,
    sequence(time(now - 60_000), time(now + 3_600_000)), name, pair.publicKey.export({ type: "spki", format: "der" }),
    // Basic constraints, critical, an empty sequence: cA false (RFC 5280 section 4.2.1.9).
    explicit(3, sequence(sequence(oid("2.5.29.19"), boolean(true), octetString(sequence())))),
  );
  const cert = sequence(tbs, ecdsaWithSha256, bitString(sign("sha256", tbs, pair.privateKey)));
  return { cert: new Uint8Array(cert), key: pair.privateKey };
}
