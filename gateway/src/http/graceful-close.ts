import type { Server } from "node:http";

/**
 * Stops accepting connections, lets in-flight requests finish, and closes idle keep-alive
 * connections, so SIGTERM never cuts a request that was already being served.
 */
export async function closeGracefully(server: Server, timeoutMs = 10_000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  timer.unref();
  // Connections that become idle after their last response are closed as they go idle.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  sweep.unref();
  await closed;
  clearTimeout(timer);
  clearInterval(sweep);
}
