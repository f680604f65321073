import { toJson } from "@bufbuild/protobuf";
import { TimestampSchema, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { jsonTimestamp } from "./json-timestamp.js";

describe("jsonTimestamp", () => {
  // Whole seconds above all: there toISOString writes ".000Z" and the Admin API's response "Z".
  it.each([1_795_000_000_000, 1_795_000_000_001, 1_795_000_000_120, 1_795_000_000_999, 0])("writes %d as protobuf's JSON mapping does", (ms) => {
    expect(jsonTimestamp(ms)).toBe(toJson(TimestampSchema, timestampFromMs(ms)));
  });

  it("is RFC 3339 in UTC, read back to the same instant", () => {
    expect(jsonTimestamp(1_795_000_000_000)).toBe("2026-11-18T11:06:40Z");
    expect(jsonTimestamp(1_795_000_000_120)).toBe("2026-11-18T11:06:40.120Z");
    expect(Date.parse(jsonTimestamp(1_795_000_000_000))).toBe(1_795_000_000_000);
  });
});
