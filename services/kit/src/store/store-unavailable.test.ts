import { Code } from "@connectrpc/connect";
import pino from "pino";
import { toConnectError } from "../rpc/server-interceptor.js";
import { isStoreUnavailable } from "./store-unavailable.js";

const logger = pino({ level: "silent" });
const named = (name: string, message = "connect ECONNREFUSED 127.0.0.1:27017") => Object.assign(new Error(message), { name });

// A store that cannot be reached is a 503 the caller may retry, never a 500 (docs/fault-handling.md).
describe("store unavailability", () => {
  it.each(["MongoServerSelectionError", "MongoNetworkError", "MongoNetworkTimeoutError", "MongoNotConnectedError", "MongoTopologyClosedError", "MongoPoolClearedError", "MongooseServerSelectionError"])(
    "answers %s Unavailable, without the driver's message", (name) => {
      const ce = toConnectError(named(name), logger);
      expect(ce.code).toBe(Code.Unavailable);
      expect(ce.rawMessage).toBe("the service's store is temporarily unavailable");
    },
  );

  it("answers SQLite's busy file Unavailable, and any other error Internal", () => {
    expect(isStoreUnavailable(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }))).toBe(true);
    expect(toConnectError(new Error("a bug"), logger).code).toBe(Code.Internal);
    expect(toConnectError(named("MongoServerError", "E11000"), logger).code).toBe(Code.Internal);
  });
});
