import { once } from "node:events";
import { createConnection, createServer, type Socket } from "node:net";

/**
 * A TCP proxy in front of a real Redis or PostgreSQL that can stop passing bytes, the way a
 * SIGSTOPped server looks from outside: connections stay open, nothing is answered.
 */
export type StallProxy = { port: number; stall(): void; resume(): void; close(): Promise<void> };

export async function startStallProxy(target: { host: string; port: number }): Promise<StallProxy> {
  let stalled = false;
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    const upstream = createConnection(target);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    if (stalled) for (const socket of pair) socket.pause();
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("stall proxy has no port");
  return {
    port: address.port,
    stall() {
      stalled = true;
      for (const pair of pairs) for (const socket of pair) socket.pause();
    },
    resume() {
      stalled = false;
      for (const pair of pairs) for (const socket of pair) socket.resume();
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
