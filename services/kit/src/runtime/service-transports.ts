import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { contextPropagation } from "../rpc/client-interceptor.js";
import { presentServiceCredential } from "../rpc/service-auth.js";
import { SERVICE_NAMES, type ServiceName } from "../module.js";

/**
 * Cluster mode: gRPC over HTTP/2 (h2c) to each service at TESSERA_<SERVICE>_URL, presenting the
 * internal token (rpc/service-auth.ts). A service whose address is not configured answers
 * Unavailable, so a missing setting shows up as a clear 503.
 */
export function grpcTransports(urls: Record<ServiceName, string | undefined>, token: string): Record<ServiceName, Transport> {
  const out = {} as Record<ServiceName, Transport>;
  const credential = presentServiceCredential(token);
  for (const name of SERVICE_NAMES) {
    const baseUrl = urls[name];
    out[name] = baseUrl
      // No response compression: gzip of a ~1 KB token reply cost more CPU on both ends than the
      // bytes it saves on a cluster network (measured: zlib was 6% of the token service's profile).
      ? createGrpcTransport({ baseUrl, interceptors: [contextPropagation, credential], acceptCompression: [] })
      : unavailableTransport(name);
  }
  return out;
}

function unavailableTransport(name: ServiceName): Transport {
  const fail = () => Promise.reject(new ConnectError(`no address configured for the ${name} service (TESSERA_${name.toUpperCase()}_URL)`, Code.Unavailable));
  return { unary: fail, stream: fail } as unknown as Transport;
}
