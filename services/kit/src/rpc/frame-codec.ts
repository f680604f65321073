/**
 * The wire format of the internal hop (frame-transport.ts, frame-server.ts): length-prefixed
 * binary frames on one long-lived HTTP/2 stream, multiplexed by a call id. Hand-written rather
 * than a protobuf envelope: the envelope is a few fixed fields, and writing them straight into the
 * one buffer of the frame avoids a second encode and copy of the message per call.
 *
 *   frame   = length:u32 body                       (big-endian; length counts the body only)
 *   request = 1 callId:u32 timeoutMs:u32 key:str16 headers:pairs message-bytes
 *   ok      = 2 callId:u32 message-bytes
 *   error   = 3 callId:u32 code:u8 message:str32 details:pairs metadata:pairs
 *   pairs   = count:u16 (name:str16 value:str32)*   (a detail's value is its protobuf bytes)
 *
 * timeoutMs 0 is no deadline; key is `typeName/name` of the method.
 */

export const REQUEST = 1;
export const REPLY_OK = 2;
export const REPLY_ERROR = 3;

/** Frames larger than this are refused by both ends: a corrupt length must not allocate gigabytes. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

export type Bytes = Uint8Array;
export type Pair = [string, string | Bytes];

export interface RequestFrame { kind: typeof REQUEST; callId: number; timeoutMs: number; key: string; headers: Array<[string, string]>; message: Bytes }
export interface OkFrame { kind: typeof REPLY_OK; callId: number; message: Bytes }
export interface ErrorFrame { kind: typeof REPLY_ERROR; callId: number; code: number; message: string; details: Array<[string, Bytes]>; metadata: Array<[string, string]> }
export type Frame = RequestFrame | OkFrame | ErrorFrame;

export class FrameTooLarge extends Error {
  constructor(readonly bytes: number, readonly limit: number) {
    super(`a frame of ${bytes} bytes is over the limit of ${limit}`);
  }
}

const pairsSize = (pairs: readonly Pair[]) => {
  let n = 2;
  for (const [name, value] of pairs) n += 2 + Buffer.byteLength(name) + 4 + (typeof value === "string" ? Buffer.byteLength(value) : value.length);
  return n;
};

function writePairs(buf: Buffer, at: number, pairs: readonly Pair[]): number {
  let o = buf.writeUInt16BE(pairs.length, at);
  for (const [name, value] of pairs) {
    o = writeStr16(buf, o, name);
    if (typeof value === "string") {
      const n = buf.write(value, o + 4);
      o = buf.writeUInt32BE(n, o) + n;
    } else {
      o = buf.writeUInt32BE(value.length, o);
      buf.set(value, o);
      o += value.length;
    }
  }
  return o;
}

function writeStr16(buf: Buffer, at: number, s: string): number {
  const n = buf.write(s, at + 2);
  return buf.writeUInt16BE(n, at) + n;
}

function checked(size: number, limit: number): Buffer {
  if (size > limit) throw new FrameTooLarge(size, limit);
  return Buffer.allocUnsafe(4 + size);
}

export function encodeRequest(callId: number, timeoutMs: number, key: string, headers: ReadonlyArray<[string, string]>, message: Bytes, limit = DEFAULT_MAX_FRAME_BYTES): Buffer {
  const size = 1 + 4 + 4 + 2 + Buffer.byteLength(key) + pairsSize(headers) + message.length;
  const buf = checked(size, limit);
  let o = buf.writeUInt32BE(size, 0);
  o = buf.writeUInt8(REQUEST, o);
  o = buf.writeUInt32BE(callId, o);
  o = buf.writeUInt32BE(timeoutMs, o);
  o = writeStr16(buf, o, key);
  o = writePairs(buf, o, headers);
  buf.set(message, o);
  return buf;
}

export function encodeOk(callId: number, message: Bytes, limit = DEFAULT_MAX_FRAME_BYTES): Buffer {
  const size = 1 + 4 + message.length;
  const buf = checked(size, limit);
  let o = buf.writeUInt32BE(size, 0);
  o = buf.writeUInt8(REPLY_OK, o);
  o = buf.writeUInt32BE(callId, o);
  buf.set(message, o);
  return buf;
}

export function encodeError(callId: number, code: number, message: string, details: ReadonlyArray<[string, Bytes]>, metadata: ReadonlyArray<[string, string]>, limit = DEFAULT_MAX_FRAME_BYTES): Buffer {
  const size = 1 + 4 + 1 + 4 + Buffer.byteLength(message) + pairsSize(details) + pairsSize(metadata);
  const buf = checked(size, limit);
  let o = buf.writeUInt32BE(size, 0);
  o = buf.writeUInt8(REPLY_ERROR, o);
  o = buf.writeUInt32BE(callId, o);
  o = buf.writeUInt8(code, o);
  const n = buf.write(message, o + 4);
  o = buf.writeUInt32BE(n, o) + n;
  o = writePairs(buf, o, details);
  writePairs(buf, o, metadata);
  return buf;
}

/** Thrown for a body that does not parse: the peer is not speaking this protocol. */
export class MalformedFrame extends Error {}

class Cursor {
  constructor(private readonly b: Buffer, public o: number) {}
  u8(): number { this.need(1); return this.b[this.o++]!; }
  u16(): number { this.need(2); const v = this.b.readUInt16BE(this.o); this.o += 2; return v; }
  u32(): number { this.need(4); const v = this.b.readUInt32BE(this.o); this.o += 4; return v; }
  str(n: number): string { this.need(n); const s = this.b.toString("utf8", this.o, this.o + n); this.o += n; return s; }
  bytes(n: number): Bytes { this.need(n); const v = this.b.subarray(this.o, this.o + n); this.o += n; return v; }
  rest(): Bytes { return this.b.subarray(this.o); }
  private need(n: number): void {
    if (this.o + n > this.b.length) throw new MalformedFrame("a frame ends inside a field");
  }
}

function readStrPairs(c: Cursor): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = c.u16(); i > 0; i--) out.push([c.str(c.u16()), c.str(c.u32())]);
  return out;
}

export function decodeFrame(body: Buffer): Frame {
  const c = new Cursor(body, 0);
  const kind = c.u8();
  const callId = c.u32();
  if (kind === REQUEST) {
    const timeoutMs = c.u32();
    const key = c.str(c.u16());
    const headers = readStrPairs(c);
    return { kind, callId, timeoutMs, key, headers, message: c.rest() };
  }
  if (kind === REPLY_OK) return { kind, callId, message: c.rest() };
  if (kind === REPLY_ERROR) {
    const code = c.u8();
    const message = c.str(c.u32());
    const details: Array<[string, Bytes]> = [];
    for (let i = c.u16(); i > 0; i--) details.push([c.str(c.u16()), c.bytes(c.u32())]);
    return { kind, callId, code, message, details, metadata: readStrPairs(c) };
  }
  throw new MalformedFrame(`unknown frame kind ${kind}`);
}

/**
 * Cuts a byte stream into frame bodies. Chunks are kept as they came and joined only when a frame
 * spans them, so the common case (whole frames in one chunk) copies nothing.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes needed before parsing is worth trying: a length prefix, or the whole frame it announced. */
  private needed = 4;

  constructor(private readonly limit = DEFAULT_MAX_FRAME_BYTES) {}

  /** Calls `onFrame` for each complete frame body; throws FrameTooLarge on an oversized length. */
  push(chunk: Buffer, onFrame: (body: Buffer) => void): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < this.needed) return;
    let buf = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    this.needed = 4;
    while (buf.length >= 4) {
      const size = buf.readUInt32BE(0);
      if (size > this.limit) throw new FrameTooLarge(size, this.limit);
      if (buf.length < 4 + size) {
        this.needed = 4 + size;
        break;
      }
      onFrame(buf.subarray(4, 4 + size));
      buf = buf.subarray(4 + size);
    }
    if (buf.length > 0) {
      this.chunks.push(buf);
      this.buffered = buf.length;
    }
  }
}
