import type { Doc } from "../../../kit/src/store/port.js";
import { jsonTimestamp } from "../../../kit/src/json-timestamp.js";
import { BUILTIN_FLOWS, builtinFlowId, type FlowDefinition, type FlowStep } from "../../../kit/src/authentication-flows/flow-model.js";

/**
 * A realm's authentication flow as stored. The step tree is kept as JSON text: FerretDB refuses
 * nested arrays, and a sub-flow's steps are an array in an array element.
 */
export interface FlowRecord extends Doc {
  realmId: string;
  alias: string;
  description: string;
  stepsJson: string;
  createdAt: number;
  updatedAt: number;
}

export interface FlowView {
  id: string;
  alias: string;
  description: string;
  builtIn: boolean;
  steps: FlowStep[];
  createdAt?: string;
  updatedAt?: string;
}

export function flowView(r: FlowRecord): FlowView {
  return {
    id: r._id, alias: r.alias, description: r.description, builtIn: false, steps: JSON.parse(r.stepsJson) as FlowStep[],
    createdAt: jsonTimestamp(r.createdAt), updatedAt: jsonTimestamp(r.updatedAt),
  };
}

export function builtinView(f: FlowDefinition): FlowView {
  return { id: builtinFlowId(f.alias), alias: f.alias, description: f.description, builtIn: true, steps: structuredClone(f.steps) as FlowStep[] };
}

export const BUILTIN_VIEWS: readonly FlowView[] = BUILTIN_FLOWS.map(builtinView);

/** What an admin event's digest covers. */
export const flowFields = (r: FlowRecord) => flowView(r);
