import net from "node:net";

/**
 * A round-robin TCP balancer over backends on loopback, as a Kubernetes Service's kube-proxy
 * spreads connections (not requests) over the ready pods: a backend refusing the connection is
 * skipped, and a connection whose backend dies is closed, so the client reconnects elsewhere.
 */
export function balancer(backends: number[]): { listen(port: number): Promise<void>; close(): void } {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.pause();
    const tryBackend = (left: number) => {
      if (left === 0) { client.destroy(); return; }
      const port = backends[next++ % backends.length]!;
      const upstream = net.connect(port, "127.0.0.1");
      let connected = false;
      upstream.once("connect", () => {
        connected = true;
        sockets.add(upstream);
        upstream.on("close", () => sockets.delete(upstream));
        client.pipe(upstream).pipe(client);
        client.resume();
        upstream.on("error", () => client.destroy());
        client.on("error", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
        client.on("close", () => upstream.destroy());
      });
      upstream.once("error", () => { if (!connected) tryBackend(left - 1); });
    };
    tryBackend(backends.length);
  });
  return {
    listen: (port) => new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve())),
    close: () => { server.close(); for (const s of sockets) s.destroy(); },
  };
}
