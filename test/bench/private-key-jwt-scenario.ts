import { generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import autocannon from "autocannon";
import { adminApi } from "../e2e/support/http.js";
import { JwtCheck } from "./jwt-check.js";
import { median, type LoadResult } from "./bench-kit.js";
import { startTessera } from "./tessera-target.js";
import type { Row } from "./client-credentials-scenario.js";

const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/**
 * A private_key_jwt client assertion maker for the load generator (RFC 7523 section 3): ES256,
 * iss = sub = the client, aud the token endpoint, a fresh jti and a 60 s exp per request, signed
 * synchronously in autocannon's setupRequest (IEEE P1363 signatures as JWS wants them). Its cost
 * falls on the load generator's core, not the server's.
 */
export class AssertionMaker {
  private readonly key: KeyObject;
  private readonly header: string;
  /** The public key to register on the client (by value). */
  readonly jwk: Record<string, unknown>;

  constructor(private readonly clientId: string, private readonly audience: string) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.key = privateKey;
    this.jwk = { ...publicKey.export({ format: "jwk" }), kid: "bench-es256", use: "sig", alg: "ES256" };
    this.header = Buffer.from(JSON.stringify({ alg: "ES256", kid: "bench-es256" })).toString("base64url");
  }

  assertion(): string {
    const now = Math.floor(Date.now() / 1000);
    const claims = Buffer.from(JSON.stringify({
      iss: this.clientId, sub: this.clientId, aud: this.audience, jti: randomUUID(), iat: now, exp: now + 60,
    })).toString("base64url");
    const input = `${this.header}.${claims}`;
    return `${input}.${sign("sha256", Buffer.from(input), { key: this.key, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
  }

  /** The token request's form with a new assertion. */
  body(): string {
    return new URLSearchParams({ grant_type: "client_credentials", client_assertion_type: ASSERTION_TYPE, client_assertion: this.assertion() }).toString();
  }
}

/**
 * client_credentials authenticated by private_key_jwt (a new ES256 assertion per request) against
 * the same Tessera's client_secret_basic, interleaved rounds, medians; every response must be a
 * token that verifies. What the assertion costs the server: its ECDSA verification, the claim
 * checks, and one store insert (the spent jti) per request, against the secret's comparison.
 */
export async function privateKeyJwtClientCredentials(opts: { rounds: number; duration: number; connections: number }): Promise<Row[]> {
  const t = await startTessera({ alg: "ES256" });
  try {
    const meta = await (await fetch(`${t.issuer}/.well-known/openid-configuration`)).json() as { token_endpoint: string; jwks_uri: string };
    const check = new JwtCheck(await (await fetch(meta.jwks_uri)).json() as never);
    const maker = new AssertionMaker("bench-pkj", meta.token_endpoint);
    const created = await adminApi(t.baseUrl, t.apiKey).post(`/admin/realms/${t.realm}/clients`, {
      clientId: "bench-pkj", grantTypes: ["client_credentials"], tokenEndpointAuthMethod: "private_key_jwt", jwks: { keys: [maker.jwk] },
    });
    if (created.status !== 201) throw new Error(`create private_key_jwt client: HTTP ${created.status}`);
    const basic = Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64");
    const run = async (jwt: boolean, duration: number): Promise<LoadResult> => {
      const r = await autocannon({
        url: meta.token_endpoint, method: "POST", connections: opts.connections, duration,
        headers: { "content-type": "application/x-www-form-urlencoded", ...(jwt ? {} : { authorization: `Basic ${basic}` }) },
        body: "grant_type=client_credentials",
        ...(jwt ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: maker.body() }) }] } : {}),
        verifyBody: (b: string | Buffer | undefined) => check.tokenResponseOk(b === undefined ? "" : String(b)),
      });
      return {
        rps: r.requests.average, requests: r.requests.total, non2xx: r.non2xx,
        mismatches: (r as unknown as { mismatches?: number }).mismatches ?? 0, errors: r.errors + r.timeouts, p99ms: r.latency.p99,
      };
    };
    // Warm-up as the plain scenario does (client-credentials-scenario.ts).
    await run(false, 10);
    await run(true, 10);
    const secret: LoadResult[] = [];
    const signed: LoadResult[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      secret.push(await run(false, opts.duration));
      signed.push(await run(true, opts.duration));
    }
    const row = (target: string, rs: LoadResult[]): Row => ({
      scenario: "client_credentials ES256, private_key_jwt", target, rps: median(rs.map((r) => r.rps)), runs: rs.map((r) => Math.round(r.rps)),
      p99ms: median(rs.map((r) => r.p99ms)), bad: rs.reduce((n, r) => n + r.non2xx + r.mismatches + r.errors, 0),
    });
    const secretRow = row("Tessera (embedded), client_secret_basic", secret);
    const signedRow = row("Tessera (embedded), private_key_jwt ES256", signed);
    if (secretRow.rps > 0) signedRow.note = `${(signedRow.rps / secretRow.rps).toFixed(2)} of client_secret_basic`;
    return [secretRow, signedRow];
  } finally {
    await t.server.stop();
  }
}
