import { LdapFailure, LdapSession } from "./ldap-connection.js";
import type { ProviderRecord } from "./provider.js";

export type ConnectionTestResult = { success: true } | { success: false; error: string; message: string };

/**
 * Test connection (spec 4.11, 7.3): bind as the configured DN, then read the users DN itself
 * (a base-scope search), so a typo in either is found. The failure says which step failed and
 * why, never the credential.
 */
export async function testConnection(p: ProviderRecord, credential: string): Promise<ConnectionTestResult> {
  let session: LdapSession | undefined;
  try {
    session = await LdapSession.open(p, credential);
    for await (const _page of session.search(p.usersDn, "(objectClass=*)", ["1.1"], { scope: "base" })) {
      // The base entry exists when the search does not fail with noSuchObject.
    }
    return { success: true };
  } catch (e) {
    if (e instanceof LdapFailure) return { success: false, error: e.kind, message: e.message };
    throw e;
  } finally {
    await session?.close();
  }
}
