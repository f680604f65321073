import { isBuiltinFlow } from "../../../kit/src/authentication-flows/flow-model.js";
import type { Problem } from "../../../kit/src/realm-transfer/document-schema.js";
import type { TransferCollection } from "../store/realm-transfer-repository.js";
import { checkFlowAlias, checkFlowDescription, checkFlowSteps } from "../../../kit/src/authentication-flows/flow-rules.js";
import type { DirectoryPart } from "./realm-import-check.js";

type At = (path: string, fn: () => unknown) => void;
type Keep = (col: TransferCollection, id: string, path: string) => void;

/**
 * The authentication flows of an imported document: the Admin API's rules for each (kit/src/authentication-flows/flow-rules.ts),
 * aliases unique and none a built-in one, and every alias the realm and its clients name is a
 * built-in flow or one of the document's.
 */
export function checkFlowsPart(part: DirectoryPart, problems: Problem[], at: At, keep: Keep): void {
  const aliases = new Map<string, string>();
  (part.authenticationFlows ?? []).forEach((f, i) => {
    const p = `$.authenticationFlows[${i}]`;
    keep("authentication_flows", f.id, p);
    at(`${p}.alias`, () => checkFlowAlias(f.alias));
    at(`${p}.description`, () => checkFlowDescription(f.description));
    at(p, () => checkFlowSteps(f.steps));
    if (isBuiltinFlow(f.alias)) problems.push({ path: `${p}.alias`, message: `"${f.alias}" is a built-in flow's alias` });
    else if (aliases.has(f.alias)) problems.push({ path: `${p}.alias`, message: `alias "${f.alias}" is also used at ${aliases.get(f.alias)}` });
    else aliases.set(f.alias, p);
  });
  const ref = (path: string, alias: string | undefined) => {
    if (alias && !isBuiltinFlow(alias) && !aliases.has(alias)) problems.push({ path, message: `no authentication flow "${alias}" in authenticationFlows` });
  };
  ref("$.realm.browserFlow", part.realm.browserFlow);
  ref("$.realm.directGrantFlow", part.realm.directGrantFlow);
  part.clients.forEach((c, i) => {
    ref(`$.clients[${i}].browserFlowOverride`, c.browserFlowOverride);
    ref(`$.clients[${i}].directGrantFlowOverride`, c.directGrantFlowOverride);
  });
}
