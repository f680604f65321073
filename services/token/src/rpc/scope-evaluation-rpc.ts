import type { JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { ScopeEvaluationService } from "../../../../gen/iam/token/v1/scope_evaluation_pb.js";
import type { ScopeEvaluation } from "../domain/scope-evaluation.js";

/** Thin handlers: check -> domain -> convert. */
export function scopeEvaluationRpc(evaluation: ScopeEvaluation): ServiceImpl<typeof ScopeEvaluationService> {
  return {
    async generateExampleTokens(req) {
      const t = await evaluation.generate(req.realm, req.clientId, req.userId, req.scope, req.baseUrl);
      return { accessToken: t.accessToken as JsonObject, idToken: t.idToken as JsonObject, userinfo: t.userinfo as JsonObject };
    },
  };
}
