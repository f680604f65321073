// Writes docs/realm-export.schema.json, the JSON Schema of the realm export document, from the
// zod schema the import validates with (services/kit/src/realm-transfer/document-schema.ts).
// Run after `npm run build`; document-schema.test.ts fails while the file is not current.
import { writeFileSync } from "node:fs";
import { z } from "zod";

const { realmDocumentSchema } = await import(new URL("../dist/services/kit/src/realm-transfer/document-schema.js", import.meta.url).href);
const out = new URL("../docs/realm-export.schema.json", import.meta.url);
writeFileSync(out, `${JSON.stringify(z.toJSONSchema(realmDocumentSchema, { io: "input" }), null, 2)}\n`);
