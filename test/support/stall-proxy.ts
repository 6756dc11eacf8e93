import type { AddressInfo } from "node:net";
import { connect, createServer, type Socket } from "node:net";

export type StallProxy = {
  /** The proxy's URL for the same scheme, user and path as the target's. */
  url: string;
  /** From now on nothing passes either way: the store looks alive (connected) but never answers. */
  stall(): void;
  close(): Promise<void>;
};

/**
 * A TCP proxy in front of a real Redis or PostgreSQL that can be stalled, as a SIGSTOPped server is:
 * connections stay open, bytes sent are held, nothing comes back.
 */
export async function startStallProxy(targetUrl: string): Promise<StallProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let stalled = false;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    client.on("data", (chunk) => {
      if (!stalled) upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!stalled) client.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    stall() {
      stalled = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
