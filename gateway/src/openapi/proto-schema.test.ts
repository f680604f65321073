import { toJson } from "@bufbuild/protobuf";
import Ajv2020Module from "ajv/dist/2020.js";
import { LockedUserSchema } from "../../../gen/iam/directory/v1/user_security_pb.js";
import { ListScopeAssignmentsRequestSchema } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { RealmSchema, RealmUpdateSchema } from "../../../gen/iam/directory/v1/realm_pb.js";
import { SigningKeySchema as SamlSigningKeySchema } from "../../../gen/iam/saml/v1/idp_pb.js";
import { SigningKeySchema as TokenSigningKeySchema } from "../../../gen/iam/token/v1/token_pb.js";
import { create } from "@bufbuild/protobuf";
import { ProtoSchemas, type JsonSchema } from "./proto-schema.js";

type Obj = { properties: Record<string, JsonSchema>; required?: string[]; additionalProperties: boolean };
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as new (o: object) => { compile(s: object): (d: unknown) => boolean };

/** The proto3 JSON mapping (https://protobuf.dev/programming-guides/json/) as JSON Schema. */
describe("ProtoSchemas", () => {
  it("requires in a reply every field with implicit presence, but a message field and a dropped-when-empty one", () => {
    const p = new ProtoSchemas({ "iam.directory.v1.Realm": ["smtpPassword"] });
    expect(p.ref(RealmSchema)).toEqual({ $ref: "#/components/schemas/Realm" });
    const realm = p.all().Realm as Obj;
    expect(realm.required).toEqual(expect.arrayContaining(["id", "name", "theme", "accessTokenLifespan"]));
    expect(realm.required).not.toContain("createdAt");
    expect(realm.required).not.toContain("smtpPassword");
    expect(realm.properties.createdAt).toEqual({ type: "string", format: "date-time" });
    expect(realm.properties.theme).toEqual({ type: "object", additionalProperties: { type: "string" } });
    expect(realm.additionalProperties).toBe(false);
  });

  it("validates what toJson writes, 64-bit integers as strings, enums by name", () => {
    const p = new ProtoSchemas();
    p.ref(LockedUserSchema);
    p.ref(ListScopeAssignmentsRequestSchema);
    const locked = p.all().LockedUser as Obj;
    expect(locked.properties.lastFailure).toEqual({ type: "string", pattern: "^-?[0-9]+$", format: "int64" });
    expect((p.all().ListScopeAssignmentsRequest as Obj).properties.kind).toEqual({ type: "string", enum: ["SCOPE_KIND_UNSPECIFIED", "SCOPE_KIND_DEFAULT", "SCOPE_KIND_OPTIONAL"] });
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile({ ...locked, $id: "x" });
    const json = toJson(LockedUserSchema, create(LockedUserSchema, { userId: "u", username: "a", lastFailure: 17n }), { alwaysEmitImplicit: true });
    expect(validate(json)).toBe(true);
    expect(validate({ ...(json as object), lastFailure: 17 })).toBe(false);
  });

  it("leaves a body's *Present and path-named fields out, and takes 64-bit integers either way", () => {
    const p = new ProtoSchemas({}, { "iam.directory.v1.RealmUpdate": ["enabled"] });
    p.ref(RealmUpdateSchema, "input");
    const update = p.all().RealmUpdate as Obj;
    expect(Object.keys(update.properties)).not.toContain("themePresent");
    expect(Object.keys(update.properties)).not.toContain("enabled");
    expect(update.required).toBeUndefined();
    p.ref(LockedUserSchema);
    p.ref(LockedUserSchema, "input");
    expect((p.all().LockedUserInput as Obj).properties.lockedUntil).toEqual({ type: ["integer", "string"], pattern: "^-?[0-9]+$" });
  });

  it("names a second package's message of the same name by its package", () => {
    const p = new ProtoSchemas();
    expect(p.ref(SamlSigningKeySchema)).toEqual({ $ref: "#/components/schemas/SigningKey" });
    expect(p.ref(TokenSigningKeySchema)).toEqual({ $ref: "#/components/schemas/TokenSigningKey" });
    expect(p.ref(SamlSigningKeySchema)).toEqual({ $ref: "#/components/schemas/SigningKey" });
  });
});
