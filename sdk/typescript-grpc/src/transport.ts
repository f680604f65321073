import { ConnectError, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, type GrpcTransportOptions } from "@connectrpc/connect-node";
import { ErrorDetailSchema, type ErrorDetail } from "./gen/iam/kit/v1/kit_pb.js";

export interface TesseraTransportOptions extends Partial<Omit<GrpcTransportOptions, "baseUrl">> {
  /** One service process, e.g. `http://directory.tessera.svc:50051` (cleartext HTTP/2) or https://. */
  baseUrl: string;
  /** The admin API key (`TESSERA_ADMIN_API_KEY`): the bearer credential every service port asks for. */
  apiKey: string;
}

/**
 * A gRPC transport (HTTP/2) to one Tessera service process that presents the admin API key on
 * every call. Hand it to `createClient(RealmService, transport)` and the like.
 */
export function createTesseraTransport(options: TesseraTransportOptions): Transport {
  const { apiKey, interceptors = [], ...rest } = options;
  return createGrpcTransport({ ...rest, interceptors: [apiKeyInterceptor(apiKey), ...interceptors] });
}

/** Sends `authorization: Bearer <key>` on every call, unary or streaming. */
export function apiKeyInterceptor(apiKey: string): Interceptor {
  if (!apiKey) throw new TypeError("apiKey is empty");
  const value = `Bearer ${apiKey}`;
  return (next) => (req) => {
    req.header.set("authorization", value);
    return next(req);
  };
}

/**
 * The service's account of a failed call (its stable reason, the request field it names), sent
 * as an `iam.kit.v1.ErrorDetail` in the gRPC status details; undefined when there is none.
 */
export function errorDetail(error: unknown): ErrorDetail | undefined {
  return ConnectError.from(error).findDetails(ErrorDetailSchema)[0];
}
