import type { InstantStatus } from "../blocks/admin.js";
import type { CallbackKeys } from "../store/callback-keys.js";
import type { ConnectionInfo } from "../store/credentials.js";

/** What listeners show and change: a workspace's callback address. */
export type CallbackAddresses = {
  address(teamId: string): Promise<string>;
  rotate(teamId: string): Promise<string>;
};

export function callbackAddresses(keys: CallbackKeys, publicUrl: string): CallbackAddresses {
  return {
    address: async (teamId) => callbackUrl(publicUrl, await keys.keyOf(teamId)),
    rotate: async (teamId) => callbackUrl(publicUrl, await keys.rotate(teamId)),
  };
}

/** Instant notifications need an address (PUBLIC_URL) and Secret 2 to check what arrives there. */
export async function instantStatus(
  addresses: CallbackAddresses | undefined,
  connection: ConnectionInfo | undefined,
): Promise<InstantStatus | undefined> {
  if (!connection) return undefined;
  if (!addresses) return { kind: "no-address" };
  if (!connection.hasSalt) return { kind: "no-salt" };
  return { kind: "on", address: await addresses.address(connection.teamId) };
}

/** The address the payment service posts a workspace's callbacks to. */
export function callbackUrl(publicUrl: string, key: string): string {
  return new URL(
    `crystalpay/callback/${key}`,
    publicUrl.endsWith("/") ? publicUrl : `${publicUrl}/`,
  ).toString();
}
