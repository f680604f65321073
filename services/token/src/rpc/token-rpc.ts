import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  JwkSchema, SigningKeySchema, TokenService, type Jwk, type SigningKey,
} from "../../../../gen/iam/token/v1/token_pb.js";
import type { Bus } from "../../../kit/src/bus/port.js";
import type { Store } from "../../../kit/src/store/port.js";
import { checkHealth } from "../../../kit/src/health.js";
import { IamError } from "../../../kit/src/errors.js";
import type { RealmMetadata } from "../domain/realm-metadata.js";
import type { KeyView } from "../domain/key-ring.js";
import { parseSigningAlg, type PublicJwk } from "../domain/signing-alg.js";

/** Thin handlers: check -> domain -> convert. */
export function tokenRpc(metadata: RealmMetadata, store: Store, bus: Bus): ServiceImpl<typeof TokenService> {
  return {
    async health() {
      return { health: await checkHealth("token", store, bus) };
    },
    async getJwks(req) {
      return { keys: (await metadata.jwks(realmOf(req.realm))).map(toJwk) };
    },
    async getDiscovery(req) {
      const doc = await metadata.discovery(realmOf(req.realm), req.baseUrl);
      return { metadata: doc as JsonObject };
    },
    async listKeys(req) {
      return { keys: (await metadata.listKeys(realmOf(req.realm))).map(toSigningKey) };
    },
    async rotateKeys(req) {
      return { keys: (await metadata.rotate(realmOf(req.realm), parseSigningAlg(req.alg))).map(toSigningKey) };
    },
  };
}

function realmOf(name: string): string {
  if (!name) throw IamError.invalid("realm", "realm is required");
  return name;
}

function toJwk(j: PublicJwk): Jwk {
  return create(JwkSchema, j);
}

function toSigningKey(k: KeyView): SigningKey {
  return create(SigningKeySchema, {
    kid: k._id,
    alg: k.alg,
    status: k.status,
    createdAt: timestampFromMs(k.createdAt),
    ...(k.rotatedAt !== undefined ? { rotatedAt: timestampFromMs(k.rotatedAt) } : {}),
    ...(k.notAfter !== undefined ? { notAfter: timestampFromMs(k.notAfter) } : {}),
    publicKey: toJwk(k.publicJwk),
  });
}
