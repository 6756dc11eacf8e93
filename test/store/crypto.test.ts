import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DecryptionError, keyId, type Sealed, SecretBox } from "../../src/store/crypto.js";

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 9);
const SECRET = "cash-register-secret-ÄÖ-✓";
const TEAM = "T0123ABCD";

/** Flips the lowest bit of the first byte of a base64 field. */
function flipped(base64: string): string {
  const bytes = Buffer.from(base64, "base64");
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  return bytes.toString("base64");
}

function openError(box: SecretBox, sealed: Sealed, context: string): unknown {
  try {
    box.open(sealed, context);
  } catch (error) {
    return error;
  }
  throw new Error("open() was expected to fail");
}

describe("SecretBox", () => {
  it("opens what it sealed, for the same team", () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal(SECRET, TEAM);
    expect(box.open(sealed, TEAM)).toBe(SECRET);
    // A new box with the same key (e.g. after a restart) opens it too.
    expect(new SecretBox(Buffer.from(KEY)).open(sealed, TEAM)).toBe(SECRET);
  });

  it("round-trips an empty string", () => {
    const box = new SecretBox(KEY);
    expect(box.open(box.seal("", TEAM), TEAM)).toBe("");
  });

  it("writes the documented envelope and never the plaintext", () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal(SECRET, TEAM);
    expect(Object.keys(sealed).sort()).toEqual(["alg", "data", "iv", "kid", "tag", "v"]);
    expect(sealed.v).toBe(1);
    expect(sealed.alg).toBe("A256GCM");
    expect(sealed.kid).toBe(createHash("sha256").update(KEY).digest("hex").slice(0, 12));
    expect(sealed.kid).toBe(keyId(KEY));
    expect(box.keyId).toBe(sealed.kid);
    expect(Buffer.from(sealed.iv, "base64")).toHaveLength(12);
    expect(Buffer.from(sealed.tag, "base64")).toHaveLength(16);
    expect(Buffer.from(sealed.data, "base64")).toHaveLength(Buffer.byteLength(SECRET, "utf8"));
    expect(JSON.stringify(sealed)).not.toContain(SECRET);
    expect(Buffer.from(sealed.data, "base64").toString("utf8")).not.toBe(SECRET);
  });

  it("uses a different IV (and so different data) each time", () => {
    const box = new SecretBox(KEY);
    const seals = Array.from({ length: 20 }, () => box.seal(SECRET, TEAM));
    expect(new Set(seals.map((sealed) => sealed.iv)).size).toBe(20);
    expect(new Set(seals.map((sealed) => sealed.data)).size).toBe(20);
    for (const sealed of seals) expect(box.open(sealed, TEAM)).toBe(SECRET);
  });

  it.each(["data", "tag", "iv"] as const)("rejects tampered %s with DecryptionError", (field) => {
    const box = new SecretBox(KEY);
    const sealed = box.seal(SECRET, TEAM);
    const tampered: Sealed = { ...sealed, [field]: flipped(sealed[field]) };
    expect(tampered[field]).not.toBe(sealed[field]);
    const error = openError(box, tampered, TEAM);
    expect(error).toBeInstanceOf(DecryptionError);
    expect((error as Error).message).toBe("stored secret failed authentication (tampered, or another key)");
    expect((error as Error).message).not.toContain(SECRET);
  });

  it.each([4, 8, 12, 15])(
    "rejects a tag shortened to %i bytes (a forgery is far easier with short tags)",
    (bytes) => {
      const box = new SecretBox(KEY);
      const sealed = box.seal(SECRET, TEAM);
      const short = Buffer.from(sealed.tag, "base64").subarray(0, bytes).toString("base64");
      expect(openError(box, { ...sealed, tag: short }, TEAM)).toBeInstanceOf(DecryptionError);
    },
  );

  it("rejects a value moved to another team (AAD) with DecryptionError", () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal(SECRET, TEAM);
    const error = openError(box, sealed, "T9999ZZZZ");
    expect(error).toBeInstanceOf(DecryptionError);
    expect((error as Error).message).not.toContain(SECRET);
  });

  it("rejects a value sealed with another key, naming both key ids", () => {
    const sealed = new SecretBox(OTHER_KEY).seal(SECRET, TEAM);
    const box = new SecretBox(KEY);
    const error = openError(box, sealed, TEAM);
    expect(error).toBeInstanceOf(DecryptionError);
    const message = (error as Error).message;
    expect(message).toContain(keyId(OTHER_KEY));
    expect(message).toContain(keyId(KEY));
    expect(message).toBe(`sealed with key ${keyId(OTHER_KEY)}, but the configured key is ${keyId(KEY)}`);
  });

  it("rejects another key even when the kid is forged to match", () => {
    const sealed = new SecretBox(OTHER_KEY).seal(SECRET, TEAM);
    const box = new SecretBox(KEY);
    expect(openError(box, { ...sealed, kid: box.keyId }, TEAM)).toBeInstanceOf(DecryptionError);
  });

  it.each([0, 16, 31, 33, 64])("refuses a %i-byte key", (length) => {
    expect(() => new SecretBox(Buffer.alloc(length, 1))).toThrow("the credentials key must be 32 bytes");
  });
});
