import { createHash } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { PublishedDocuments, matchesIfNoneMatch } from "./published-documents.js";

describe("PublishedDocuments", () => {
  it("serializes a document once per version and tags it with the SHA-256 of its bytes", () => {
    const docs = new PublishedDocuments();
    let serialized = 0;
    const serialize = (v: unknown) => { serialized++; return JSON.stringify(v); };
    const v1 = { issuer: "https://id.example/realms/a", scopes_supported: ["openid", "email"] };
    const a = docs.prepare("discovery:a", v1, serialize);
    expect(a.body.toString()).toBe(JSON.stringify(v1));
    expect(a.etag).toBe(`"${createHash("sha256").update(JSON.stringify(v1)).digest("base64url")}"`);
    // The same object (in process) and an equal copy (decoded after a network hop) are the same version.
    expect(docs.prepare("discovery:a", v1, serialize)).toBe(a);
    expect(docs.prepare("discovery:a", structuredClone(v1), serialize)).toBe(a);
    expect(serialized).toBe(1);
    // Any change of content is a new body and a new tag at once.
    const v2 = { ...v1, scopes_supported: ["openid", "email", "dept"] };
    const b = docs.prepare("discovery:a", v2, serialize);
    expect(serialized).toBe(2);
    expect(b.etag).not.toBe(a.etag);
    expect(JSON.parse(b.body.toString())).toEqual(v2);
    // Arrays of another length or order, and a member present in one only, are changes too.
    expect(docs.prepare("discovery:a", { ...v1, scopes_supported: ["email", "openid"] }, serialize).etag).not.toBe(a.etag);
    expect(docs.prepare("discovery:a", { ...v1, extra: undefined }, serialize).body.toString()).toBe(JSON.stringify(v1));
    expect(serialized).toBe(4);
    // Keys are separate documents.
    expect(docs.prepare("discovery:b", v1, serialize).etag).toBe(a.etag);
    expect(serialized).toBe(5);
  });
});

describe("matchesIfNoneMatch (RFC 9110 section 13.1.2)", () => {
  const tag = "\"abc\"";
  it.each([
    ["\"abc\"", true], ["W/\"abc\"", true], ["\"x\", \"abc\"", true], [" \"x\" ,W/\"abc\" ", true], ["*", true],
    ["\"abd\"", false], ["abc", false], ["", false], ["\"x\", \"y\"", false],
  ])("%j -> %s", (header, expected) => {
    expect(matchesIfNoneMatch(header, tag)).toBe(expected);
  });
  it("is false without the header", () => {
    expect(matchesIfNoneMatch(undefined, tag)).toBe(false);
  });
});
