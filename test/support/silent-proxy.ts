import net, { type AddressInfo } from "node:net";

export interface SilentProxy {
  url: string;
  /** Connections accepted so far. */
  connections: number;
  /**
   * The connections open now stop carrying bytes either way and stay open: a peer whose machine
   * died or whose network went away, which sends neither FIN nor RST. Later connections work.
   */
  silence(): void;
  close(): Promise<void>;
}

/** A TCP proxy on loopback to `targetPort` that can go silent (SilentProxy.silence). */
export async function startSilentProxy(targetPort: number): Promise<SilentProxy> {
  const open = new Set<net.Socket>();
  const silent = new WeakSet<net.Socket>();
  const proxy: SilentProxy = {
    url: "",
    connections: 0,
    silence: () => { for (const s of open) silent.add(s); },
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = net.createServer((client) => {
    proxy.connections++;
    const upstream = net.connect(targetPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      open.add(s);
      s.on("error", () => undefined);
      s.on("close", () => open.delete(s));
    }
    client.on("data", (d) => { if (!silent.has(client)) upstream.write(d); });
    upstream.on("data", (d) => { if (!silent.has(upstream)) client.write(d); });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
