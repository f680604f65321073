import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { jsonPath, realmDocumentSchema, schemaProblems } from "./document-schema.js";

describe("realm export document schema", () => {
  it("is what docs/realm-export.schema.json publishes (regenerate the file when the schema changes)", () => {
    const published = JSON.parse(readFileSync(join(process.cwd(), "docs", "realm-export.schema.json"), "utf8")) as unknown;
    expect(z.toJSONSchema(realmDocumentSchema, { io: "input" })).toEqual(published);
  });

  it("names each problem by its JSON path", () => {
    expect(jsonPath(["users", 3, "username"])).toBe("$.users[3].username");
    expect(jsonPath(["clientRoles", "my client", 0])).toBe('$.clientRoles["my client"][0]');
    const problems = schemaProblems({ formatVersion: 2, realm: {}, roles: "x" });
    expect(problems.map((p) => p.path)).toEqual(expect.arrayContaining(["$.formatVersion", "$.realm.name", "$.roles", "$.clients"]));
  });
});
