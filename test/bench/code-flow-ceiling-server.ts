import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign, timingSafeEqual } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { hash, verify } from "@node-rs/argon2";
import { CEILING_CLIENT } from "./code-flow-ceiling.js";
import { SqliteStore } from "../../services/kit/src/store/sqlite-store.js";

/**
 * The ceiling of the code-flow benchmark (docs/performance.md), as ceiling-server.ts is the client_credentials
 * one: the least a server can do for the bench's flow (authorize -> login page, POST credentials
 * -> code, code -> tokens, logout) at the realm's argon2id parameters. One argon2id verification
 * (`@node-rs/argon2`, what Tessera hashes with, at most one per core at a time, as Tessera's
 * hashing pool runs them), two RS256 signatures (access and ID token, node:crypto on the main
 * thread), an HTML form with a CSRF field and a cookie, codes single-use, client secret checked.
 * Nothing else: by default no store (every map is in memory, so a crash loses every session), no
 * events, no scopes, consent, brute-force counting, mappers, routing or input validation beyond
 * what the flow's own requests need. Tessera's code-flow rate divided by this one is what its design costs.
 * With `durable` the sessions, codes and refresh tokens live in Tessera's own SQLite store instead
 * (kit's SqliteStore: WAL, group commit, fdatasync before a write resolves), 6 writes per flow
 * against Tessera's 9 and an event: what durability alone costs this flow.
 *   node code-flow-ceiling-server.js <port> <memoryKiB> <iterations> [durable]
 * Serves realm "bench", client "bench-client" (secret below), user "bench-user", at the paths the
 * bench's browser (oneLogin) uses against Tessera.
 */
const port = Number(process.argv[2] ?? 0);
const memoryCost = Number(process.argv[3] ?? 19456);
const timeCost = Number(process.argv[4] ?? 2);
const base = `http://127.0.0.1:${port}`;
const issuer = `${base}/realms/bench`;
const oidc = "/realms/bench/protocol/openid-connect";
const loginPath = "/realms/bench/login-actions/authenticate";
const redirectUri = "http://127.0.0.1:9/cb";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwks = JSON.stringify({ keys: [{ ...publicKey.export({ format: "jwk" }), kid: "ceiling", alg: "RS256", use: "sig" }] });
const header = Buffer.from(JSON.stringify({ alg: "RS256", typ: "JWT", kid: "ceiling" })).toString("base64url");
const passwordHash = await hash(CEILING_CLIENT.password, { memoryCost, timeCost, parallelism: 1 });
const userId = randomUUID();
const secret = Buffer.from(CEILING_CLIENT.clientSecret);

interface Transaction { csrf: string; state: string; nonce: string | null }
type Code = { sid: string; expiresAt: number; nonce: string | null };
/** Where sessions, codes and refresh tokens live: maps, or Tessera's store. */
interface FlowState {
  createSession(sid: string): Promise<void>;
  createCode(code: string, value: Code): Promise<void>;
  /** The code's value, once: a second call for the same code gets null. */
  consumeCode(code: string): Promise<Code | null>;
  createRefresh(token: string, sid: string): Promise<void>;
  /** Ends the refresh token and its session; false for an unknown token. */
  endRefresh(token: string): Promise<boolean>;
}

function inMemory(): FlowState {
  const codes = new Map<string, Code>();
  const sessions = new Map<string, { createdAt: number }>();
  const refreshTokens = new Map<string, string>();
  return {
    async createSession(sid) { sessions.set(sid, { createdAt: Date.now() }); },
    async createCode(code, value) { codes.set(code, value); },
    async consumeCode(code) {
      const value = codes.get(code) ?? null;
      codes.delete(code);
      return value;
    },
    async createRefresh(token, sid) { refreshTokens.set(token, sid); },
    async endRefresh(token) {
      const sid = refreshTokens.get(token);
      if (sid === undefined) return false;
      refreshTokens.delete(token);
      sessions.delete(sid);
      return true;
    },
  };
}

async function durable(): Promise<FlowState> {
  const store = new SqliteStore({ path: join(mkdtempSync(join(tmpdir(), "code-flow-ceiling-")), "flow.db") });
  const sessions = await store.collection<{ _id: string; createdAt: number }>({ name: "sessions" });
  const codes = await store.collection<{ _id: string; used: boolean } & Code>({ name: "codes" });
  const refresh = await store.collection<{ _id: string; sid: string }>({ name: "refresh_tokens" });
  return {
    async createSession(sid) { await sessions.insert({ _id: sid, createdAt: Date.now() }); },
    async createCode(code, value) { await codes.insert({ _id: code, used: false, ...value }); },
    async consumeCode(code) {
      // One conditional update, as Tessera consumes a code (DESIGN 3: never read-then-write).
      return codes.findOneAndUpdate({ _id: code, used: false }, { $set: { used: true } });
    },
    async createRefresh(token, sid) { await refresh.insert({ _id: token, sid }); },
    async endRefresh(token) {
      const found = await refresh.findOneAndDelete({ _id: token });
      if (!found) return false;
      await sessions.delete(found.sid);
      return true;
    },
  };
}

const transactions = new Map<string, Transaction>();
const state = process.argv[5] === "durable" ? await durable() : inMemory();

/** At most one verification per core in flight: more only interleave and evict each other's 19 MiB. */
let hashing = 0;
const waiting: Array<() => void> = [];
async function verifyPassword(password: string): Promise<boolean> {
  if (hashing >= availableParallelism()) await new Promise<void>((r) => waiting.push(r));
  hashing++;
  try {
    return await verify(passwordHash, password);
  } finally {
    hashing--;
    waiting.shift()?.();
  }
}

const token = () => randomBytes(32).toString("base64url");

function jwt(claims: Record<string, unknown>): string {
  const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function clientAuthenticated(req: IncomingMessage): boolean {
  const auth = req.headers.authorization ?? "";
  if (!auth.startsWith("Basic ")) return false;
  const [id, given] = Buffer.from(auth.slice(6), "base64").toString().split(":");
  const b = Buffer.from(given ?? "");
  return id === CEILING_CLIENT.clientId && b.length === secret.length && timingSafeEqual(b, secret);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

function authorize(res: ServerResponse, q: URLSearchParams): void {
  if (q.get("client_id") !== CEILING_CLIENT.clientId || q.get("redirect_uri") !== redirectUri || q.get("response_type") !== "code") {
    res.writeHead(400, { "content-type": "text/html" }).end("<p>invalid request</p>");
    return;
  }
  const tx = token();
  const csrf = token();
  transactions.set(tx, { csrf, state: q.get("state") ?? "", nonce: q.get("nonce") });
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8", "cache-control": "no-store",
    "set-cookie": `TX=${tx}; Path=/realms/bench; HttpOnly; SameSite=Lax`,
  });
  res.end(`<!doctype html><html><body><form method="post" action="${loginPath}?tx=${tx}">`
    + `<input type="hidden" name="csrf" value="${csrf}"><input name="username"><input name="password" type="password">`
    + "<button>Sign in</button></form></body></html>");
}

async function login(req: IncomingMessage, res: ServerResponse, q: URLSearchParams, form: URLSearchParams): Promise<void> {
  const txId = q.get("tx") ?? "";
  const tx = transactions.get(txId);
  if (!tx || cookie(req, "TX") !== txId || form.get("csrf") !== tx.csrf) {
    res.writeHead(400, { "content-type": "text/html" }).end("<p>expired</p>");
    return;
  }
  if (form.get("username") !== CEILING_CLIENT.username || !(await verifyPassword(form.get("password") ?? ""))) {
    res.writeHead(200, { "content-type": "text/html" }).end("<p>invalid credentials</p>");
    return;
  }
  transactions.delete(txId);
  const sid = randomUUID();
  await state.createSession(sid);
  const code = token();
  await state.createCode(code, { sid, expiresAt: Date.now() + 60_000, nonce: tx.nonce });
  const to = new URL(redirectUri);
  to.search = new URLSearchParams({ code, state: tx.state, iss: issuer }).toString();
  res.writeHead(302, { location: to.href, "set-cookie": `SSO=${sid}; Path=/realms/bench; HttpOnly; SameSite=Lax` }).end();
}

async function exchange(res: ServerResponse, form: URLSearchParams): Promise<void> {
  const code = await state.consumeCode(form.get("code") ?? "");
  if (form.get("grant_type") !== "authorization_code" || !code || code.expiresAt < Date.now() || form.get("redirect_uri") !== redirectUri) {
    json(res, 400, { error: "invalid_grant" });
    return;
  }
  const now = Math.floor(Date.now() / 1000);
  const accessToken = jwt({
    exp: now + 300, iat: now, jti: randomUUID(), iss: issuer, aud: "account", sub: userId, typ: "Bearer",
    azp: CEILING_CLIENT.clientId, sid: code.sid, scope: "openid profile email",
    realm_access: { roles: ["offline_access", "uma_authorization"] }, preferred_username: CEILING_CLIENT.username,
  });
  const digest = createHash("sha256").update(accessToken).digest();
  const idToken = jwt({
    exp: now + 300, iat: now, auth_time: now, jti: randomUUID(), iss: issuer, aud: CEILING_CLIENT.clientId, sub: userId,
    typ: "ID", azp: CEILING_CLIENT.clientId, sid: code.sid, at_hash: digest.subarray(0, 16).toString("base64url"), acr: "1",
    ...(code.nonce ? { nonce: code.nonce } : {}), preferred_username: CEILING_CLIENT.username,
  });
  const refresh = token();
  await state.createRefresh(refresh, code.sid);
  json(res, 200, {
    access_token: accessToken, expires_in: 300, refresh_expires_in: 1800, refresh_token: refresh, token_type: "Bearer",
    id_token: idToken, "not-before-policy": 0, session_state: code.sid, scope: "openid profile email",
  });
}

async function logout(res: ServerResponse, form: URLSearchParams): Promise<void> {
  if (!(await state.endRefresh(form.get("refresh_token") ?? ""))) {
    json(res, 400, { error: "invalid_grant" });
    return;
  }
  res.writeHead(204).end();
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", base);
  if (req.method === "GET") {
    if (url.pathname === `${oidc}/auth`) authorize(res, url.searchParams);
    else if (url.pathname === `${oidc}/certs`) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(jwks);
    } else res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const form = new URLSearchParams(Buffer.concat(chunks).toString());
    if (url.pathname === loginPath) {
      login(req, res, url.searchParams, form).catch(() => res.writeHead(500).end());
      return;
    }
    if (!clientAuthenticated(req)) {
      res.setHeader("www-authenticate", 'Basic realm="bench"');
      json(res, 401, { error: "invalid_client" });
    } else if (url.pathname === `${oidc}/token`) exchange(res, form).catch(() => res.writeHead(500).end());
    else if (url.pathname === `${oidc}/logout`) logout(res, form).catch(() => res.writeHead(500).end());
    else res.writeHead(404).end();
  });
});
server.listen(port, "127.0.0.1", () => process.stdout.write(`ready ${port}\n`));
