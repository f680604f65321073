import type { Command } from "commander";
import { CliError, EXIT } from "../exit-codes.js";
import { defined, readObject } from "../input.js";
import { addOutputOptions } from "../output.js";
import { itemPath, RESOURCES, type ResourceSpec } from "../resources.js";
import { action, client, print, requireRealm, type OutputOptions } from "../run-action.js";

/**
 * `--grant acme=view-users,manage-clients` (repeatable) as the Admin API's `realmAccess`
 * (docs/security.md, Administrators).
 */
function realmAccessOf(grants: string[]): Array<{ realm: string; roles: string[] }> {
  return grants.map((g) => {
    const at = g.indexOf("=");
    if (at < 1 || at === g.length - 1) throw new CliError(EXIT.usage, `--grant takes realm=role[,role...], got "${g}"`);
    return { realm: g.slice(0, at), roles: g.slice(at + 1).split(",").map((r) => r.trim()).filter(Boolean) };
  });
}

interface CreateFlag {
  flag: string;
  field: string;
  description: string;
  many?: boolean;
  /** Turns the flag's value(s) into the field's. */
  parse?: (value: never) => unknown;
}

/** Fields a resource's `create` also takes as flags, beside --data / --file. */
const CREATE_FLAGS: Record<string, CreateFlag[]> = {
  realms: [
    { flag: "--name <name>", field: "name", description: "realm name (a lowercase slug)" },
    { flag: "--display-name <text>", field: "displayName", description: "human-readable name" },
  ],
  users: [
    { flag: "--username <username>", field: "username", description: "username" },
    { flag: "--password <password>", field: "password", description: "initial password" },
    { flag: "--email <email>", field: "email", description: "email address" },
    { flag: "--first-name <name>", field: "firstName", description: "first name" },
    { flag: "--last-name <name>", field: "lastName", description: "last name" },
  ],
  clients: [
    { flag: "--client-id <clientId>", field: "clientId", description: "client id (a slug)" },
    { flag: "--client-type <type>", field: "clientType", description: "CONFIDENTIAL or PUBLIC" },
    { flag: "--redirect-uri <uri>", field: "redirectUris", description: "allowed redirect URI (repeatable)", many: true },
    { flag: "--grant-type <grant>", field: "grantTypes", description: "grant type (repeatable)", many: true },
  ],
  roles: [
    { flag: "--name <name>", field: "name", description: "role name" },
    { flag: "--description <text>", field: "description", description: "description" },
  ],
  groups: [
    { flag: "--name <name>", field: "name", description: "group name" },
    { flag: "--parent-id <id>", field: "parentId", description: "parent group id" },
  ],
  "client-scopes": [
    { flag: "--name <name>", field: "name", description: "scope name" },
  ],
  admins: [
    { flag: "--username <username>", field: "username", description: "username (lowercase)" },
    { flag: "--password <password>", field: "password", description: "password (at least 12 characters)" },
    { flag: "--server-admin", field: "serverAdmin", description: "every realm and the administrators" },
    { flag: "--grant <realm=roles>", field: "realmAccess", description: "roles in a realm, e.g. acme=view-users,manage-clients (repeatable)", many: true, parse: realmAccessOf },
  ],
};

const collect = (value: string, previous: string[] = []) => [...previous, value];

const withOutput = (cmd: Command): Command => addOutputOptions(cmd);

function withRealm(cmd: Command, spec: ResourceSpec): Command {
  return spec.realmScoped ? cmd.requiredOption("-r, --realm <realm>", "the realm") : cmd;
}

type Opts = OutputOptions & { realm?: string; data?: string; file?: string } & Record<string, unknown>;

/** `tessera <resource> list|get|create|update|delete` for every Admin API resource. */
export function addResourceCommands(program: Command): void {
  for (const spec of RESOURCES) {
    const group = program.command(spec.name).description(`manage ${spec.description}`);
    const realmOf = (o: Opts) => (spec.realmScoped ? requireRealm(o.realm) : "");

    const list = withOutput(withRealm(group.command("list").description(`list ${spec.description}`), spec));
    if (spec.paging === "skip-limit") list.option("--skip <n>", "rows to skip").option("--limit <n>", "rows to return").option("--search <text>", "search text");
    if (spec.paging === "first-max") list.option("--first <n>", "offset").option("--max <n>", "rows to return");
    if (spec.searchable) list.option("--search <text>", "search text");
    list.action(action(async (o: Opts) => {
      const query = defined({ skip: o.skip, limit: o.limit, search: o.search, first: o.first, max: o.max }) as Record<string, string>;
      const answer = await client().request("GET", spec.collection(realmOf(o)), undefined, query);
      const rows = spec.listKey && answer && typeof answer === "object" && !Array.isArray(answer)
        ? (answer as Record<string, unknown>)[spec.listKey] : answer;
      print(o.json || o.output !== "table" ? answer : rows, o, spec.columns);
    }));

    withOutput(withRealm(group.command("get").argument(`<${spec.idField}>`).description(`show one of the ${spec.description}`), spec))
      .action(action(async (id: string, o: Opts) => {
        print(await client().request("GET", itemPath(spec, realmOf(o), id)), o);
      }));

    const create = withOutput(withRealm(group.command("create").description(`create one of the ${spec.description}`), spec))
      .option("--data <json>", "the body as JSON").option("--file <path>", "the body from a JSON file ('-' for stdin)");
    for (const f of CREATE_FLAGS[spec.name] ?? []) {
      if (f.many) create.option(f.flag, f.description, collect);
      else create.option(f.flag, f.description);
    }
    create.action(action(async (o: Opts) => {
      const body = readObject(o);
      for (const f of CREATE_FLAGS[spec.name] ?? []) {
        const key = camel(f.flag);
        if (o[key] !== undefined) body[f.field] = f.parse ? f.parse(o[key] as never) : o[key];
      }
      if (Object.keys(body).length === 0) throw new CliError(EXIT.usage, "nothing to create: give flags, --data or --file");
      print(await client().request("POST", spec.collection(realmOf(o)), body), o);
    }));

    if (spec.updatable) {
      withOutput(withRealm(group.command("update").argument(`<${spec.idField}>`).description(`change fields of one of the ${spec.description} (only the fields sent change)`), spec))
        .option("--data <json>", "the changed fields as JSON").option("--file <path>", "the changed fields from a JSON file")
        .action(action(async (id: string, o: Opts) => {
          const body = readObject(o);
          if (Object.keys(body).length === 0) throw new CliError(EXIT.usage, "nothing to change: give --data or --file");
          print(await client().request("PUT", itemPath(spec, realmOf(o), id), body), o);
        }));
    }

    withOutput(withRealm(group.command("delete").argument(`<${spec.idField}>`).description(`delete one of the ${spec.description}`), spec))
      .action(action(async (id: string, o: Opts) => {
        const answer = await client().request("DELETE", itemPath(spec, realmOf(o), id));
        if (answer === undefined) process.stderr.write(`deleted ${spec.name.replace(/s$/, "")} ${id}\n`);
        else print(answer, o);
      }));
  }
}

/** The property commander gives a flag: `--display-name <x>` -> displayName. */
function camel(flag: string): string {
  return flag.replace(/^--/, "").split(" ")[0]!.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
