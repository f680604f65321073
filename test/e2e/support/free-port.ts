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

/**
 * Free on IPv4 (where the servers listen, 0.0.0.0) and on IPv6 loopback too: the tests address
 * servers as `localhost`, which fetch tries on ::1 as well, so a port another process holds on
 * ::1 alone would send the requests there (a Go interop run waited 90 s on such a port). A
 * machine without IPv6 loopback has nothing there to collide with.
 */
async function canListen(port: number): Promise<boolean> {
  return (await listenOnce(port, "0.0.0.0")) !== "in-use" && (await listenOnce(port, "::1")) !== "in-use";
}

function listenOnce(port: number, host: string): Promise<"free" | "in-use" | "no-address"> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "EADDRINUSE" || e.code === "EACCES" ? "in-use" : "no-address"));
    srv.listen({ port, host, ipv6Only: host === "::1" }, () => srv.close(() => resolve("free")));
  });
}
