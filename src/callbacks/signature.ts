import { createHash, timingSafeEqual } from "node:crypto";

// The payment service signs a callback as sha1(id + ":" + salt), lowercase hex, where the salt is the
// cash register's second key ("Secret 2"). Only the id is signed: nothing else in the body is proof.

/** The signature the service puts on a callback for invoice `id`. */
export function callbackSignature(id: string, salt: string): string {
  return createHash("sha1").update(`${id}:${salt}`, "utf8").digest("hex");
}

/** True when `given` is the signature of `id` under `salt`, compared in constant time. */
export function signatureMatches(id: string, given: string, salt: string): boolean {
  const expected = Buffer.from(callbackSignature(id, salt), "utf8");
  // Hashing both sides makes the lengths equal, so a wrong length takes the same time as a wrong value.
  const a = createHash("sha256").update(expected).digest();
  const b = createHash("sha256").update(given.toLowerCase(), "utf8").digest();
  return timingSafeEqual(a, b);
}
