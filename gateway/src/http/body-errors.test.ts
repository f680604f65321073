import express, { type NextFunction, type Request, type Response } from "express";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { bodyParserError } from "./body-errors.js";

/** The errors express's real parsers raise, as bodyParserError names them. */
describe("bodyParserError", () => {
  async function parserError(parser: express.RequestHandler, headers: Record<string, string>, body: string): Promise<unknown> {
    const app = express();
    let caught: unknown;
    app.post("/", parser, (_req: Request, res: Response) => { res.status(204).end(); });
    app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
      caught = err;
      res.status(599).end();
    });
    const server = createServer(app);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/`, { method: "POST", headers, body });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    return caught;
  }
  const form = express.urlencoded({ extended: false, limit: 1024, parameterLimit: 2 });
  const FORM = "application/x-www-form-urlencoded";

  it("names an oversized body, too many parameters, a foreign charset and an unknown encoding", async () => {
    expect(bodyParserError(await parserError(form, { "content-type": FORM }, `a=${"x".repeat(2000)}`)))
      .toEqual({ status: 413, reason: "payload_too_large", message: "request body is too large" });
    expect(bodyParserError(await parserError(form, { "content-type": FORM }, "a=1&b=2&c=3")))
      .toEqual({ status: 413, reason: "payload_too_large", message: "request body has too many parameters" });
    expect(bodyParserError(await parserError(form, { "content-type": `${FORM}; charset=latin1` }, "a=1")))
      .toEqual({ status: 415, reason: "unsupported_media_type", message: "unsupported body charset; send UTF-8" });
    expect(bodyParserError(await parserError(form, { "content-type": FORM, "content-encoding": "x-nope" }, "a=1")))
      .toEqual({ status: 415, reason: "unsupported_media_type", message: "unsupported body encoding" });
    expect(bodyParserError(await parserError(express.json(), { "content-type": "application/json" }, "{")))
      .toEqual({ status: 400, reason: "invalid_json", message: "request body is not valid JSON" });
  });

  it("keeps the 400 of a gzip body that is not gzip (was a 500)", async () => {
    const err = await parserError(form, { "content-type": FORM, "content-encoding": "gzip" }, "a=1");
    expect(err).toBeInstanceOf(Error);
    expect(bodyParserError(err)).toEqual({ status: 400, reason: "invalid_request", message: "request body could not be read" });
  });

  it("leaves errors that are not a parser's alone", () => {
    expect(bodyParserError(new ConnectError("x", Code.NotFound))).toBeUndefined();
    expect(bodyParserError(Object.assign(new Error("server side"), { status: 500, expose: false }))).toBeUndefined();
    expect(bodyParserError("not an error")).toBeUndefined();
  });
});
