import { createRequire } from "node:module";
import { SAML_REASONS, samlInvalid } from "./saml-errors.js";

const require = createRequire(import.meta.url);
const { validate } = require("@authenio/samlify-xmllint-wasm") as { validate: (xml: string) => Promise<boolean> };

/**
 * Validates a protocol message against the SAML 2.0 protocol schema (saml-schema-protocol-2.0.xsd
 * with the assertion and xmldsig schemas) using libxml2 compiled to WebAssembly. The validator
 * logs its findings on the console; they are silenced here and reported as one error.
 */
export async function checkProtocolSchema(xml: string): Promise<void> {
  const { error, debug } = console;
  console.error = () => undefined;
  console.debug = () => undefined;
  try {
    await validate(xml);
  } catch {
    throw samlInvalid(SAML_REASONS.invalidRequest, "the SAML message does not conform to the SAML 2.0 protocol schema");
  } finally {
    console.error = error;
    console.debug = debug;
  }
}
