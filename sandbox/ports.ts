import { createServer } from "node:net";

/**
 * A port free on 127.0.0.1 right now, for an app that must know its own address before it starts
 * (PUBLIC_URL for the payment service's callbacks). Another process could take it in between; on
 * one test machine that is rare enough.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no free port");
  return address.port;
}
