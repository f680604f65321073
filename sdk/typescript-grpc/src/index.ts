// Hand-written entry points; the generated descriptors and messages are under ./gen/ and are
// imported by path, e.g. "@tessera/grpc/gen/iam/directory/v1/realm_pb.js".
export { apiKeyInterceptor, createTesseraTransport, errorDetail, type TesseraTransportOptions } from "./transport.js";
