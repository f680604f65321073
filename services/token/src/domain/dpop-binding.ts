import type { JWTPayload } from "jose";
import { IamError } from "../../../kit/src/errors.js";
import type { ClientDirectory, ClientInfo } from "./client-directory.js";
import { DPOP_ALGS, invalidDpopProof, type DpopProofs } from "./dpop-proof.js";

const TOKEN_PATH = "/protocol/openid-connect/token";
const PAR_PATH = "/protocol/openid-connect/ext/par/request";
const USERINFO_PATH = "/protocol/openid-connect/userinfo";

/** How a protected resource's request presented its access token, and the proof it came with. */
export interface PresentedAccess {
  /** "Bearer" (RFC 6750) or "DPoP" (RFC 9449 section 7.1). */
  scheme: string;
  /** The DPoP header; "" when not sent. */
  proof: string;
  /** The request's method. */
  method: string;
}

/** The algorithms discovery advertises (RFC 9449 section 5.1, dpop_signing_alg_values_supported). */
export const DPOP_SIGNING_ALGS: readonly string[] = DPOP_ALGS;

/**
 * Sender-constrained tokens (RFC 9449): which key a token request binds its tokens to, and whether
 * a resource request proves possession of the key its access token is bound to. The endpoint URLs
 * the proofs' htu must name are the issuer's, which is how the gateway's public URL names them.
 */
export class DpopBinding {
  constructor(private readonly proofs: DpopProofs, private readonly clients: ClientDirectory) {}

  /**
   * Section 5: the thumbprint the tokens are bound to ("" without a proof), after the proof's
   * checks; a client that must use DPoP (dpopBoundAccessTokens) without a proof is refused.
   */
  async forTokenRequest(realm: string, issuer: string, client: ClientInfo, proof: string): Promise<string> {
    if (!proof) {
      if (client.dpopBoundAccessTokens) throw invalidDpopProof("this client must send a DPoP proof");
      return "";
    }
    const accepted = await this.proofs.check(proof, {
      realm, htm: "POST", htu: issuer + TOKEN_PATH, nonceRequired: client.dpopNonceRequired,
    });
    return accepted.jkt;
  }

  /**
   * Section 10.1: a proof sent with a pushed authorization request binds the code to its key, as
   * dpop_jkt does; "" without a proof. A dpop_jkt sent with it must name the same key.
   */
  async forPushedRequest(realm: string, issuer: string, client: ClientInfo, proof: string, dpopJkt: string | undefined): Promise<string> {
    if (!proof) return "";
    const accepted = await this.proofs.check(proof, {
      realm, htm: "POST", htu: issuer + PAR_PATH, nonceRequired: client.dpopNonceRequired,
    });
    if (dpopJkt !== undefined && dpopJkt !== accepted.jkt) throw invalidDpopProof("dpop_jkt does not name the DPoP proof's key");
    return accepted.jkt;
  }

  /** Section 8.2: the nonce a successful token response hands a client that must send them; "" otherwise. */
  nonceFor(realm: string, client: ClientInfo): string {
    return client.dpopNonceRequired ? this.proofs.nonces.current(realm) : "";
  }

  /**
   * Section 7.1 at userinfo, for an active token: a DPoP-bound token needs the DPoP scheme and a
   * proof by its key that hashes it (ath); one sent as Bearer is refused (reason dpop_bound_token,
   * so the gateway challenges with DPoP), as is an unbound token sent as DPoP.
   */
  async checkResource(realm: string, issuer: string, token: string, payload: JWTPayload, presented: PresentedAccess): Promise<void> {
    const cnf = payload.cnf as { jkt?: unknown } | undefined;
    const jkt = typeof cnf?.jkt === "string" ? cnf.jkt : "";
    if (presented.scheme !== "DPoP") {
      if (jkt) {
        throw new IamError({
          code: "unauthenticated", reason: "dpop_bound_token", oauthError: "invalid_token",
          message: "the access token is DPoP-bound: send it with the DPoP scheme and a proof",
        });
      }
      return;
    }
    if (!jkt) throw IamError.oauth("invalid_token", "the access token is not DPoP-bound", "unauthenticated");
    if (!presented.proof) throw invalidDpopProof("a DPoP proof is required");
    const client = await this.clients.get(realm, String(payload.azp ?? ""));
    const accepted = await this.proofs.check(presented.proof, {
      realm, htm: presented.method, htu: issuer + USERINFO_PATH, accessToken: token, nonceRequired: client?.dpopNonceRequired ?? false,
    });
    if (accepted.jkt !== jkt) throw invalidDpopProof("the proof's key is not the one the access token is bound to");
  }
}
