import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { ClientService } from "../../../../gen/iam/directory/v1/client_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { ClientDirectory, ClientInfo } from "./client-directory.js";

export interface PresentedClient {
  clientId: string;
  clientSecret: string;
}

/**
 * Client authentication at the protocol endpoints (RFC 6749 section 2.3): client_secret_basic and
 * client_secret_post are checked by the directory's AuthenticateClient (constant time); PUBLIC
 * clients authenticate with "none" (their clientId only). The configuration then comes from the
 * cached ClientDirectory. Every failure is `invalid_client` (section 5.2), rendered 401.
 */
export class ClientAuth {
  private readonly client: Client<typeof ClientService>;

  constructor(transport: Transport, private readonly clients: ClientDirectory) {
    this.client = createClient(ClientService, transport);
  }

  async authenticate(realm: string, presented: PresentedClient | undefined): Promise<ClientInfo> {
    const clientId = presented?.clientId ?? "";
    if (!clientId) throw invalidClient("client authentication required");
    try {
      await this.client.authenticateClient({ realm, clientId, secret: presented?.clientSecret ?? "" });
    } catch (e) {
      if (e instanceof ConnectError && (e.code === Code.Unauthenticated || e.code === Code.NotFound || e.code === Code.InvalidArgument)) {
        throw invalidClient("client authentication failed");
      }
      throw e;
    }
    const info = await this.clients.get(realm, clientId);
    if (!info || !info.enabled) throw invalidClient("client authentication failed");
    return info;
  }
}

export function invalidClient(message: string): IamError {
  return IamError.oauth("invalid_client", message, "unauthenticated");
}
