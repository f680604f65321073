import type { ClientInfo } from "./client-directory.js";

/** What an authorization code, a device code or a refresh family records of its client. */
export interface IssuedToClient {
  clientId: string;
  /** The directory's id of the client; absent in records stored before it was recorded. */
  clientInternalId?: string;
}

/**
 * Whether a record was issued to `client` (RFC 6749 sections 4.1.3 and 6, RFC 8628 section 3.4):
 * the same clientId and, when the record names one, the same directory id, so a client deleted and
 * created again under the same clientId is another client. Older records go by clientId alone.
 */
export function issuedTo(record: IssuedToClient, client: Pick<ClientInfo, "id" | "clientId">): boolean {
  return record.clientId === client.clientId && (record.clientInternalId === undefined || record.clientInternalId === client.id);
}
