import { generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import autocannon from "autocannon";
import { JwtCheck } from "./jwt-check.js";
import { median, type LoadResult } from "./bench-kit.js";
import { startTessera } from "./tessera-target.js";
import type { Row } from "./client-credentials-scenario.js";

/**
 * A DPoP proof maker for the load generator (RFC 9449 section 4.2): ES256, a fresh jti and iat
 * per request, signed synchronously in autocannon's setupRequest (node:crypto, IEEE P1363
 * signatures as JWS wants them). Its cost falls on the load generator's core, not the server's.
 */
export class ProofMaker {
  private readonly key: KeyObject;
  private readonly header: string;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.key = privateKey;
    const jwk = publicKey.export({ format: "jwk" });
    this.header = Buffer.from(JSON.stringify({ typ: "dpop+jwt", alg: "ES256", jwk })).toString("base64url");
  }

  proof(htm: string, htu: string): string {
    const claims = Buffer.from(JSON.stringify({ jti: randomUUID(), htm, htu, iat: Math.floor(Date.now() / 1000) })).toString("base64url");
    const input = `${this.header}.${claims}`;
    return `${input}.${sign("sha256", Buffer.from(input), { key: this.key, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
  }
}

/**
 * client_credentials with a DPoP proof per request (the token bound to its key: cnf.jkt,
 * token_type DPoP) against the same Tessera's plain Bearer client_credentials, interleaved rounds,
 * medians; each DPoP response must be a DPoP token that verifies. What the proof costs: its
 * signature check, the thumbprint, and one store insert (the jti) per request.
 */
export async function dpopClientCredentials(opts: { rounds: number; duration: number; connections: number }): Promise<Row[]> {
  const t = await startTessera({ alg: "ES256" });
  try {
    const meta = await (await fetch(`${t.issuer}/.well-known/openid-configuration`)).json() as { token_endpoint: string; jwks_uri: string };
    const check = new JwtCheck(await (await fetch(meta.jwks_uri)).json() as never);
    const basic = Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64");
    const headers = { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` };
    const maker = new ProofMaker();
    const run = async (dpop: boolean, duration: number): Promise<LoadResult> => {
      const r = await autocannon({
        url: meta.token_endpoint, method: "POST", headers, body: "grant_type=client_credentials",
        connections: opts.connections, duration,
        ...(dpop ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, dpop: maker.proof("POST", meta.token_endpoint) } }) }] } : {}),
        verifyBody: (b: string | Buffer | undefined) => {
          const body = b === undefined ? "" : String(b);
          return check.tokenResponseOk(body) && (!dpop || body.includes('"token_type":"DPoP"'));
        },
      });
      return {
        rps: r.requests.average, requests: r.requests.total, non2xx: r.non2xx,
        mismatches: (r as unknown as { mismatches?: number }).mismatches ?? 0, errors: r.errors + r.timeouts, p99ms: r.latency.p99,
      };
    };
    // Warm-up as the plain scenario does (client-credentials-scenario.ts).
    await run(false, 10);
    await run(true, 10);
    const plain: LoadResult[] = [];
    const bound: LoadResult[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      plain.push(await run(false, opts.duration));
      bound.push(await run(true, opts.duration));
    }
    const row = (target: string, rs: LoadResult[], note?: string): Row => ({
      scenario: "client_credentials ES256, DPoP", target, rps: median(rs.map((r) => r.rps)), runs: rs.map((r) => Math.round(r.rps)),
      p99ms: median(rs.map((r) => r.p99ms)), bad: rs.reduce((n, r) => n + r.non2xx + r.mismatches + r.errors, 0), ...(note ? { note } : {}),
    });
    const plainRow = row("Tessera (embedded), Bearer", plain);
    const boundRow = row("Tessera (embedded), DPoP-bound", bound);
    if (plainRow.rps > 0) boundRow.note = `${(boundRow.rps / plainRow.rps).toFixed(2)} of Bearer`;
    return [plainRow, boundRow];
  } finally {
    await t.server.stop();
  }
}
