// An example Tessera plugin (docs/plugins.md), in plain ESM JavaScript with JSDoc types: Node
// loads it as it is, with no build step, and an editor checks it against `tessera/plugin`.
import { appendFile } from "node:fs/promises";

/** @typedef {import("tessera/plugin").TesseraPlugin} TesseraPlugin */
/** @typedef {import("tessera/plugin").StepResult} StepResult */

/** Where events are written, one JSON object a line; read from the environment at init. */
let eventsFile = "";

/** @param {Record<string, unknown>} record */
async function record(record) {
  if (eventsFile) await appendFile(eventsFile, JSON.stringify(record) + "\n");
}

/** @type {TesseraPlugin} */
const plugin = {
  id: "example",
  version: "1.0.0",
  kinds: ["event-listener", "protocol-mapper", "authenticator"],

  init(context) {
    eventsFile = context.env.TESSERA_EXAMPLE_EVENTS_FILE ?? "";
    context.log.info("example plugin ready", { writesEvents: eventsFile !== "" });
  },

  // Every login and admin event, as the audit service stored it, appended to the file.
  eventListener: {
    async onLoginEvent(event) {
      await record({ kind: "login", type: event.type, realm: event.realm, userId: event.userId, clientId: event.clientId });
    },
    async onAdminEvent(event) {
      await record({
        kind: "admin", operationType: event.operationType, resourceType: event.resourceType,
        resourcePath: event.resourcePath, realm: event.realm, representation: event.representation,
      });
    },
  },

  // The claim `tessera_example` (or the mapper's claim.name): the client, the user's department
  // attribute and the mapper's own `prefix` setting.
  protocolMapper: {
    defaultClaimName: "tessera_example",
    configKeys: ["prefix"],
    map({ user, client, config }) {
      const department = user.attributes.department?.[0];
      if (department === undefined) return undefined;
      return `${config.prefix ?? "example"}:${client.clientId}:${department}`;
    },
  },

  // A knowledge question: the answer must equal the user's `example_answer` attribute (attribute names take letters, digits, _ and -).
  authenticator: {
    displayName: "Example knowledge question",
    credential: true,
    configKeys: ["question"],
    /** @returns {StepResult} */
    authenticate({ user, form, config }) {
      if (!user) return { outcome: "failure", error: "the user is not identified yet" };
      const expected = user.attributes.example_answer?.[0];
      if (expected === undefined) return { outcome: "failure", error: "no answer is set for this user" };
      if (form.answer === undefined) {
        return { outcome: "challenge", page: { title: config.question ?? "What is your answer?", fields: [{ name: "answer", label: "Answer", type: "text" }] } };
      }
      return form.answer === expected ? { outcome: "success" } : { outcome: "failure", error: "wrong answer" };
    },
  },
};

export default plugin;
