import { Code, ConnectError, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { contextPropagation } from "../rpc/client-interceptor.js";
import { presentServiceCredential } from "../rpc/service-auth.js";
import { transportFailures } from "../rpc/transport-failure.js";
import { createFrameTransport } from "../rpc/frame-transport.js";
import { SERVICE_NAMES, type ServiceName } from "../module.js";

export interface InternalHop {
  transport: "frames" | "connect";
  connections: number;
}

/**
 * Cluster mode: each service at TESSERA_<SERVICE>_URL over HTTP/2 (h2c), presenting the internal
 * token (rpc/service-auth.ts). A service whose address is not configured answers Unavailable, so a
 * missing setting shows up as a clear 503, as does a service that cannot be reached or dies
 * mid-call (rpc/transport-failure.ts).
 *
 * By default the calls go as frames on one long-lived HTTP/2 stream per connection
 * (rpc/frame-transport.ts): measured on the benchmark machine, Connect's per-call machinery and
 * one HTTP/2 stream per call were about two thirds of the hop's CPU (docs/performance.md, "The
 * cluster hop"). TESSERA_INTERNAL_TRANSPORT=connect goes back to Connect, below.
 *
 * The Connect calls use the Connect protocol with binary protobuf, not gRPC: every service serves gRPC,
 * gRPC-web and Connect on one port, and for a unary call Connect sends one plain body each way
 * where gRPC goes through enveloped message streams and trailers. Measured on the benchmark
 * machine (cluster client_credentials, all processes on one core, A/B): 768/922 req/s with gRPC,
 * 1238/1092 with Connect. First-party backends keep calling over gRPC (README, Cluster mode).
 */
export function clusterTransports(
  urls: Record<ServiceName, string | undefined>, token: string, hop: InternalHop = { transport: "frames", connections: 1 },
): Record<ServiceName, Transport> {
  const out = {} as Record<ServiceName, Transport>;
  const credential = presentServiceCredential(token);
  for (const name of SERVICE_NAMES) {
    const baseUrl = urls[name];
    if (baseUrl && hop.transport === "frames") {
      // The credential goes once per stream, in its headers, so it is no interceptor here. A
      // service of an older release (a rolling update) is called over Connect until it serves frames.
      out[name] = createFrameTransport({
        baseUrl, authorization: `Bearer ${token}`, interceptors: [transportFailures(name), contextPropagation], connections: hop.connections,
        fallback: () => connectTransport(baseUrl, [credential]),
      });
      continue;
    }
    out[name] = baseUrl
      ? connectTransport(baseUrl, [transportFailures(name), contextPropagation, credential])
      : unavailableTransport(name);
  }
  return out;
}

function connectTransport(baseUrl: string, interceptors: Interceptor[]): Transport {
  // No response compression: gzip of a ~1 KB token reply cost more CPU on both ends than the
  // bytes it saves on a cluster network (measured: zlib was 6% of the token service's profile).
  return createConnectTransport({ baseUrl, httpVersion: "2", useBinaryFormat: true, interceptors, acceptCompression: [] });
}

function unavailableTransport(name: ServiceName): Transport {
  const fail = () => Promise.reject(new ConnectError(`no address configured for the ${name} service (TESSERA_${name.toUpperCase()}_URL)`, Code.Unavailable));
  return { unary: fail, stream: fail } as unknown as Transport;
}
