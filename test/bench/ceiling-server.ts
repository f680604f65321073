import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

/**
 * The ceiling of the client_credentials benchmark (docs/performance.md): a bare node:http server that only
 * signs a token of the same shape with jose, with no client authentication, storage or routing.
 * Run: node ceiling-server.js <port> <RS256|ES256>
 */
const port = Number(process.argv[2] ?? 0);
const alg = process.argv[3] === "ES256" ? "ES256" : "RS256";
const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: "ceiling", alg, use: "sig" };
const issuer = `http://127.0.0.1:${port}`;

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/jwks") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ keys: [jwk] }));
    return;
  }
  req.resume();
  req.on("end", () => {
    const now = Math.floor(Date.now() / 1000);
    new SignJWT({ typ: "Bearer", azp: "bench-client", scope: "profile email", clientId: "bench-client" })
      .setProtectedHeader({ alg, kid: "ceiling", typ: "JWT" })
      .setIssuer(issuer).setSubject("service-account").setAudience("account")
      .setIssuedAt(now).setExpirationTime(now + 300).setJti(randomUUID())
      .sign(privateKey)
      .then((token) => {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify({ access_token: token, token_type: "Bearer", expires_in: 300, scope: "profile email" }));
      });
  });
});
server.listen(port, "127.0.0.1", () => process.stdout.write(`ready ${port}\n`));
