import { challengeTtl, PASSKEY_CHALLENGE_TTL_MS } from "./passkey-ceremony.js";
import { TRANSACTION_TTL_MS } from "./login-transaction.js";

describe("a passkey challenge's lifetime follows the options' timeout", () => {
  it.each<[string, string, number]>([
    ["the default policy's two minutes", JSON.stringify({ timeout: 120_000 }), PASSKEY_CHALLENGE_TTL_MS],
    ["a short timeout", JSON.stringify({ timeout: 30_000 }), PASSKEY_CHALLENGE_TTL_MS],
    ["five minutes, plus the time to post", JSON.stringify({ timeout: 300_000 }), 330_000],
    ["no timeout (the browser's default): WebAuthn's ten minutes, plus the post", JSON.stringify({ challenge: "x" }), 630_000],
    ["a timeout past the login transaction", JSON.stringify({ timeout: 31_536_000 }), TRANSACTION_TTL_MS],
    ["options that are no JSON", "{", 630_000],
  ])("%s", (_label, options, ttl) => {
    expect(challengeTtl(options)).toBe(ttl);
  });
});
