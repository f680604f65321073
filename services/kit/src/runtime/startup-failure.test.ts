import { createServer } from "node:net";
import { ConfigError } from "../config.js";
import { explainListenFailure, listenOrExplain, startupFailureLine } from "./startup-failure.js";

const settings = { port: "TESSERA_PORT", host: "TESSERA_HOST" };
const errno = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

// The one line a failed start leaves on stderr (exit 78; spawned processes are tested in
// test/e2e/startup-failures.e2e.test.ts).
describe("startup failures", () => {
  it("names the setting of each listen refusal, and passes any other error on", () => {
    expect(explainListenFailure(errno("EADDRINUSE"), 8080, "0.0.0.0", settings).message)
      .toBe("TESSERA_PORT: port 8080 is in use on 0.0.0.0 by another process; stop it, or choose another port");
    expect(explainListenFailure(errno("EACCES"), 80, "0.0.0.0", settings).message)
      .toBe("TESSERA_PORT: port 80 on 0.0.0.0 needs privileges this process does not have; choose a port above 1023");
    for (const code of ["ENOTFOUND", "EAI_AGAIN", "EAI_NODATA", "EAI_FAIL"]) {
      const e = explainListenFailure(errno(code), 8080, "nowhere.invalid", settings);
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).variable).toBe("TESSERA_HOST");
    }
    expect(explainListenFailure(errno("EADDRNOTAVAIL"), 8080, "10.1.2.3", settings).message)
      .toBe("TESSERA_HOST: 10.1.2.3 is not an address of this machine");
    const other = errno("EMFILE");
    expect(explainListenFailure(other, 8080, "0.0.0.0", settings)).toBe(other);
  });

  it("listens, or rejects with the explained refusal and leaves no listener behind", async () => {
    const holder = createServer();
    await listenOrExplain(holder, 0, "127.0.0.1", settings);
    const port = (holder.address() as { port: number }).port;
    try {
      const second = createServer();
      await expect(listenOrExplain(second, port, "127.0.0.1", settings)).rejects.toThrow(`TESSERA_PORT: port ${port} is in use on 127.0.0.1`);
      expect(second.listening).toBe(false);
      expect(second.listenerCount("error")).toBe(0);
    } finally {
      holder.close();
    }
  });

  it("is one line: a configuration error names its variable, anything else its message", () => {
    expect(startupFailureLine(new ConfigError("TESSERA_PORT", "must be an integer, got \"x\"")))
      .toBe("tessera: configuration error: TESSERA_PORT: must be an integer, got \"x\"");
    expect(startupFailureLine(new Error("unable to open\n  database file \n")))
      .toBe("tessera: startup failed: unable to open database file");
    expect(startupFailureLine("plain")).toBe("tessera: startup failed: plain");
  });
});
