import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateXML } from "xmllint-wasm";

const require = createRequire(import.meta.url);

/** samlify's schema validator (SAML protocol schemas), as samlify.setSchemaValidator takes it. */
export const samlifyValidator = require("@authenio/samlify-xmllint-wasm") as { validate(xml: string): Promise<unknown> };
// xmllint-wasm is the engine of @authenio/samlify-xmllint-wasm; its xmldsig schema is reused here.
const schemaDir = join(dirname(require.resolve("@authenio/samlify-xmllint-wasm")), "schemas");
// From dist/test/e2e/support back to the source tree's fixture (not compiled).
const subsetXsd = join(dirname(fileURLToPath(import.meta.url)), "../../../../test/e2e/fixtures/idp-metadata-subset.xsd");

/** Validates IdP metadata against the SAML 2.0 metadata schema subset (fixtures/idp-metadata-subset.xsd). */
export async function validateIdpMetadata(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const load = (f: string) => ({ fileName: f, contents: readFileSync(join(schemaDir, f), "utf8") });
  const result = await validateXML({
    xml: [{ fileName: "metadata.xml", contents: xml }],
    schema: [{ fileName: "metadata.xsd", contents: readFileSync(subsetXsd, "utf8") }],
    preload: ["xmldsig-core-schema.xsd", "XMLSchema.dtd", "datatypes.dtd"].map(load),
  });
  return { valid: result.valid, errors: result.errors.map((e) => e.message) };
}
