import { decodeFrame, encodeError, encodeOk, encodeRequest, FrameReader, FrameTooLarge, MalformedFrame, REPLY_ERROR, REPLY_OK, REQUEST } from "./frame-codec.js";

const bytes = (...b: number[]) => new Uint8Array(b);
const bodies = (reader: FrameReader, chunks: Buffer[]) => {
  const out: Buffer[] = [];
  for (const c of chunks) reader.push(c, (b) => out.push(Buffer.from(b)));
  return out;
};

describe("the frames wire format", () => {
  it("round-trips each kind of frame, multi-byte text included", () => {
    const req = encodeRequest(7, 1500, "iam.directory.v1.RealmService/GetRealm", [["x-request-id", "r-1"], ["x-tessera-actor", "{\"username\":\"zoë\"}"]], bytes(10, 4, 97, 99, 109, 101));
    expect(req.readUInt32BE(0)).toBe(req.length - 4);
    expect(decodeFrame(req.subarray(4))).toEqual({
      kind: REQUEST, callId: 7, timeoutMs: 1500, key: "iam.directory.v1.RealmService/GetRealm",
      headers: [["x-request-id", "r-1"], ["x-tessera-actor", "{\"username\":\"zoë\"}"]], message: Buffer.from([10, 4, 97, 99, 109, 101]),
    });
    expect(decodeFrame(encodeOk(0xffffffff, bytes()).subarray(4))).toEqual({ kind: REPLY_OK, callId: 0xffffffff, message: Buffer.alloc(0) });
    const err = encodeError(9, 5, "realm «acme» not found", [["iam.kit.v1.ErrorDetail", bytes(10, 1, 120)]], [["retry-after", "1"]]);
    expect(decodeFrame(err.subarray(4))).toEqual({
      kind: REPLY_ERROR, callId: 9, code: 5, message: "realm «acme» not found",
      details: [["iam.kit.v1.ErrorDetail", Buffer.from([10, 1, 120])]], metadata: [["retry-after", "1"]],
    });
  });

  it("cuts a byte stream into frames however it is chunked: byte by byte, several per chunk", () => {
    const frames = [encodeOk(1, bytes(1, 2, 3)), encodeOk(2, bytes()), encodeRequest(3, 0, "a/b", [], bytes(9))];
    const all = Buffer.concat(frames);
    const expected = frames.map((f) => f.subarray(4));
    expect(bodies(new FrameReader(), [all])).toEqual(expected);
    expect(bodies(new FrameReader(), [...all].map((b) => Buffer.from([b])))).toEqual(expected);
    expect(bodies(new FrameReader(), [all.subarray(0, 2), all.subarray(2, 11), all.subarray(11)])).toEqual(expected);
  });

  it("refuses a frame over the limit on both ends, before buffering it", () => {
    expect(() => encodeOk(1, new Uint8Array(100), 64)).toThrow(FrameTooLarge);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(65);
    expect(() => new FrameReader(64).push(header, () => undefined)).toThrow(FrameTooLarge);
  });

  it("refuses a body that does not parse", () => {
    expect(() => decodeFrame(Buffer.from([9, 0, 0, 0, 1]))).toThrow(MalformedFrame);
    expect(() => decodeFrame(Buffer.from([REQUEST, 0, 0, 0, 1, 0, 0]))).toThrow(MalformedFrame);
    const truncated = encodeError(1, 2, "x", [], []).subarray(4, 12);
    expect(() => decodeFrame(truncated)).toThrow(MalformedFrame);
  });
});
