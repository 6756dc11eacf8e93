import { createHash } from "node:crypto";

// The service's payout signatures (notes/payouts.md): sha1 hex of colon-joined fields ending in the
// register's Secret 2. What goes in (the salt above all) is never logged or put in an error.

function sha1Hex(text: string): string {
  return createHash("sha1").update(text, "utf8").digest("hex");
}

/** payoff/create: sha1 of `amount:method:wallet:salt`, the amount exactly as sent ("100" ≠ "100.0"). */
export function payoffCreateSignature(amount: string, method: string, wallet: string, salt: string): string {
  return sha1Hex(`${amount}:${method}:${wallet}:${salt}`);
}

/** payoff/submit, payoff/cancel and the payout callback: sha1 of `id:salt`. */
export function payoffIdSignature(id: string, salt: string): string {
  return sha1Hex(`${id}:${salt}`);
}
