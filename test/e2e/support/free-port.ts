import { createServer } from "node:net";

/**
 * A loopback port that was free a moment ago, chosen at random below Linux's ephemeral range
 * (32768-60999). A port the OS hands out for listen(0) can be handed out again to any other
 * process (a test's own NATS server, a client socket) before the caller binds it, which made a
 * cluster service fail with EADDRINUSE when two test files launched clusters at once; ports
 * outside that range are only ever taken by someone choosing them, as here, at random.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * 20_000);
    if (await canListen(port)) return port;
    if (attempt >= 50) throw new Error("no free loopback port found in 10000-29999");
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}
