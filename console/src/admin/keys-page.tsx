import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { when } from "../ui/format";
import { ConfirmButton, Empty, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";

interface TokenKey { kid: string; alg: string; status: string; createdAt?: string; rotatedAt?: string; notAfter?: string }
interface SamlKey { id: string; status: string; algorithm: string; subject: string; fingerprintSha256: string; notAfter?: string; createdAt?: string; retiresAt?: string }

/** The algorithms a token signing key may have (the rotation's `alg`; RS256 by default). */
const TOKEN_ALGS = ["RS256", "PS256", "ES256", "EdDSA"];

/**
 * The realm's signing keys, as Keycloak's realm settings show them (its Keys tab): the token keys
 * (JWKS) and the SAML IdP's certificates, each rotated after a confirmation. Rotation makes a new
 * key active and keeps the old one published while what it signed is still in use, so relying
 * parties that cache the keys keep verifying (docs/oidc.md, docs/saml.md). A token key rotation
 * names its algorithm, which becomes the realm's; one active key per algorithm stays (Keycloak's).
 */
export function KeysPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const realmPath = `/admin/realms/${encodeURIComponent(p.realm)}`;
  return (
    <>
      <div class="page-head"><h1>Keys</h1></div>
      <TokenKeys session={p.session} path={`${realmPath}/keys`} />
      <SamlKeys session={p.session} path={`${realmPath}/saml-keys`} />
    </>
  );
}

function TokenKeys(p: { session: AdminSession; path: string }): JSX.Element {
  const keys = useLoad(() => p.session.request<TokenKey[]>("GET", p.path), [p.path]);
  const [alg, setAlg] = useState("RS256");
  const [notice, setNotice] = useState("");
  const list = keys.data ?? [];
  return (
    <Section title="Token signing keys" actions={
      <div class="actions">
        <label for="rotate-alg">New key's algorithm</label>
        <select id="rotate-alg" value={alg} onChange={(e) => setAlg((e.currentTarget as HTMLSelectElement).value)}>
          {TOKEN_ALGS.map((a) => <option value={a}>{a}</option>)}
        </select>
        <ConfirmButton label="Rotate token key" danger={false} confirm="Rotate"
          question={`Make a new ${alg} key the realm's signing key? The ${alg} key it replaces, if any, stays published until the tokens it signed have expired; keys of other algorithms stay as they are.`}
          onConfirm={async () => {
            const after = await p.session.request<TokenKey[]>("POST", `${p.path}/rotate`, { alg });
            setNotice(`A new ${alg} key signs now (${after.find((k) => k.status === "active")?.kid ?? ""}).`);
            keys.reload();
          }} />
      </div>
    }>
      <ErrorAlert message={keys.error} />
      {notice ? <Notice message={notice} /> : null}
      {keys.loading && !keys.data ? <Loading what="token signing keys" /> : list.length === 0 ? <Empty what="token signing keys" /> : (
        <table>
          <caption class="sr-only">Token signing keys</caption>
          <thead><tr><th scope="col">Key ID</th><th scope="col">Algorithm</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Published until</th></tr></thead>
          <tbody>
            {list.map((k) => (
              <tr>
                <td><code>{k.kid}</code></td><td>{k.alg}</td><td>{k.status}</td><td>{when(k.createdAt)}</td>
                <td>{k.status === "active" ? "while it signs" : when(k.notAfter)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function SamlKeys(p: { session: AdminSession; path: string }): JSX.Element {
  const keys = useLoad(() => p.session.request<SamlKey[]>("GET", p.path), [p.path]);
  const [notice, setNotice] = useState("");
  const list = keys.data ?? [];
  return (
    <Section title="SAML signing keys" actions={
      <ConfirmButton label="Rotate SAML key" danger={false} confirm="Rotate"
        question="Sign SAML responses with a new key and certificate from now on? The current certificate stays in the metadata for the grace period, so service providers can refresh it."
        onConfirm={async () => {
          const key = await p.session.request<SamlKey>("POST", `${p.path}/rotate`);
          setNotice(`A new SAML key signs now (SHA-256 fingerprint ${key.fingerprintSha256}).`);
          keys.reload();
        }} />
    }>
      <ErrorAlert message={keys.error} />
      {notice ? <Notice message={notice} /> : null}
      {keys.loading && !keys.data ? <Loading what="SAML signing keys" /> : list.length === 0 ? <Empty what="SAML signing keys (the first SAML use makes one)" /> : (
        <table>
          <caption class="sr-only">SAML signing keys</caption>
          <thead><tr><th scope="col">Certificate</th><th scope="col">Algorithm</th><th scope="col">Status</th><th scope="col">Valid until</th><th scope="col">Published until</th></tr></thead>
          <tbody>
            {list.map((k) => (
              <tr>
                <td>{k.subject}<br /><span class="muted small">SHA-256 <code class="fingerprint">{k.fingerprintSha256}</code></span></td>
                <td>{k.algorithm}</td><td>{k.status}</td><td>{when(k.notAfter)}</td>
                <td>{k.status === "ACTIVE" ? "while it signs" : when(k.retiresAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
