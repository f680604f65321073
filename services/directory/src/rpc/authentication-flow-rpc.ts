import { fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  AuthenticationFlowSchema, type AuthenticationFlow, type AuthenticationFlowInput, type AuthenticationFlowService,
} from "../../../../gen/iam/directory/v1/authentication_flow_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { FlowAdmin, FlowInput } from "../domain/flow-admin.js";
import type { FlowConditions } from "../domain/flow-conditions.js";
import type { FlowView } from "../domain/authentication-flow.js";
import type { RealmLookup } from "../domain/realm-lookup.js";
import type { LoginCodeMail } from "../domain/login-code-mail.js";

/** Thin handlers: check -> domain -> convert. */
export function authenticationFlowRpc(admin: FlowAdmin, conditions: FlowConditions, realms: RealmLookup, codes: LoginCodeMail): ServiceImpl<typeof AuthenticationFlowService> {
  return {
    async createFlow(req) {
      if (!req.flow) throw IamError.invalid("flow", "flow is required");
      return { flow: flowToProto(await admin.create(req.realm, inputOf(req.flow))) };
    },
    async listFlows(req) {
      return { flows: (await admin.list(req.realm, req.first, req.max)).map(flowToProto) };
    },
    async getFlow(req) {
      return { flow: flowToProto(await admin.get(req.realm, req.id)) };
    },
    async getFlowByAlias(req) {
      return { flow: flowToProto(await admin.byAlias(req.realm, req.alias)) };
    },
    async updateFlow(req) {
      if (!req.flow) throw IamError.invalid("flow", "flow is required");
      return { flow: flowToProto(await admin.update(req.realm, req.id, inputOf(req.flow))) };
    },
    async deleteFlow(req) {
      await admin.delete(req.realm, req.id);
      return {};
    },
    async evaluateConditions(req) {
      const realm = await realms.byName(req.realm);
      const holds = await conditions.evaluate(realm, req.userId, req.clientId, req.conditions.map((c) => ({ type: c.type, config: { ...c.config } })));
      return { holds };
    },
    async sendLoginCode(req) {
      return { email: await codes.send(await realms.byName(req.realm), req.userId, req.code, req.minutes) };
    },
  };
}

function inputOf(i: AuthenticationFlowInput): FlowInput {
  return {
    ...(i.alias !== undefined ? { alias: i.alias } : {}),
    ...(i.description !== undefined ? { description: i.description } : {}),
    ...(i.steps !== undefined ? { steps: toJson(ListValueSchema, i.steps) } : {}),
  };
}

export function flowToProto(v: FlowView): AuthenticationFlow {
  const flow = fromJson(AuthenticationFlowSchema, { ...v, steps: [] } as unknown as JsonValue);
  flow.steps = fromJson(ListValueSchema, v.steps as unknown as JsonValue);
  return flow;
}
