import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { z } from "zod";

/** A secret at rest: AES-256-GCM with a random 96-bit IV, its tag, and the id of the key used. */
export const sealedSchema = z.object({
  v: z.literal(1),
  alg: z.literal("A256GCM"),
  kid: z.string().min(1),
  iv: z.string().min(1),
  tag: z.string().min(1),
  data: z.string(),
});
export type Sealed = z.infer<typeof sealedSchema>;

const TAG_BYTES = 16;

export class DecryptionError extends Error {
  override readonly name = "DecryptionError";
}

/** Short public fingerprint of a key: lets a later key rotation tell which key sealed a value. */
export function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 12);
}

export class SecretBox {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("the credentials key must be 32 bytes");
    this.keyId = keyId(key);
  }

  /** `context` (e.g. the team id) is bound as associated data: a value moved to another team fails. */
  seal(plaintext: string, context: string): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, "utf8"));
    const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return {
      v: 1,
      alg: "A256GCM",
      kid: this.keyId,
      iv: iv.toString("base64"),
      tag: cipher.getAuthTag().toString("base64"),
      data: data.toString("base64"),
    };
  }

  open(sealed: Sealed, context: string): string {
    if (sealed.kid !== this.keyId) {
      throw new DecryptionError(`sealed with key ${sealed.kid}, but the configured key is ${this.keyId}`);
    }
    try {
      // A fixed tag length: Node would otherwise accept a forged, shortened tag.
      const tag = Buffer.from(sealed.tag, "base64");
      if (tag.length !== TAG_BYTES) throw new Error("wrong tag length");
      const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(sealed.iv, "base64"), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, "base64")), decipher.final()]).toString(
        "utf8",
      );
    } catch {
      throw new DecryptionError("stored secret failed authentication (tampered, or another key)");
    }
  }
}
