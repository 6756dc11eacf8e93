/**
 * The Slack stand-in's files: files.getUploadURLExternal hands out an upload address on the
 * stand-in, the upload's bytes are kept (as Slack keeps them; WebClient sends them as
 * multipart/form-data), and files.completeUploadExternal shares them. Tests read the bytes back.
 */
import type { IncomingMessage } from "node:http";

export type UploadedFile = {
  id: string;
  filename: string;
  /** The length files.getUploadURLExternal was told. */
  length: number;
  /** The uploaded bytes (undefined until the upload came). */
  bytes?: Buffer;
  title?: string;
  /** Set by files.completeUploadExternal: where it was shared (undefined: private to the app). */
  completed: boolean;
  channel?: string;
  /** The thread it was shared in (thread_ts), if any. */
  threadTs?: string;
  initialComment?: string;
  at: number;
};

export class SlackFiles {
  readonly files = new Map<string, UploadedFile>();
  private counter = 0;
  private readonly waiters: Array<() => void> = [];
  /** A fault: the upload address answers this HTTP status (0: it takes the bytes, as normal). */
  failUploads = 0;

  /** files.getUploadURLExternal */
  start(body: Record<string, unknown>, base: string): Record<string, unknown> {
    const filename = typeof body.filename === "string" ? body.filename : "";
    const length = Number(body.length);
    if (!filename || !Number.isInteger(length) || length <= 0)
      return { ok: false, error: "invalid_arguments" };
    this.counter += 1;
    const id = `F0FILE${String(this.counter).padStart(4, "0")}`;
    this.files.set(id, { id, filename, length, completed: false, at: Date.now() });
    return { ok: true, upload_url: `${base}/upload/${id}`, file_id: id };
  }

  /** The POST to the upload address: the first file part of the form (or the raw body). */
  async receive(id: string, req: IncomingMessage): Promise<number> {
    const file = this.files.get(id);
    if (!file) return 404;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (this.failUploads) return this.failUploads;
    const raw = Buffer.concat(chunks);
    const type = req.headers["content-type"] ?? "";
    if (type.startsWith("multipart/form-data")) {
      const form = await new Request("http://upload", {
        method: "POST",
        headers: { "content-type": type },
        body: raw,
      }).formData();
      // Narrowed by typeof, not a `value is File` predicate: with undici's own types loaded, the
      // File of FormData's entries is undici-types' and the global File is node:buffer's.
      const part = [...form.values()].find((value) => typeof value !== "string");
      if (part === undefined || typeof part === "string") return 400;
      file.bytes = Buffer.from(await part.arrayBuffer());
    } else file.bytes = raw;
    return file.bytes.length === file.length ? 200 : 400;
  }

  /** files.completeUploadExternal */
  complete(body: Record<string, unknown>): Record<string, unknown> {
    let listed: unknown;
    try {
      listed = typeof body.files === "string" ? JSON.parse(body.files) : body.files;
    } catch {
      return { ok: false, error: "invalid_arguments" };
    }
    if (!Array.isArray(listed) || listed.length === 0) return { ok: false, error: "invalid_arguments" };
    const done: Array<Record<string, unknown>> = [];
    for (const entry of listed as Array<{ id?: unknown; title?: unknown }>) {
      const file = typeof entry.id === "string" ? this.files.get(entry.id) : undefined;
      if (!file?.bytes) return { ok: false, error: "file_not_found" };
      file.completed = true;
      if (typeof entry.title === "string") file.title = entry.title;
      if (typeof body.channel_id === "string") file.channel = body.channel_id;
      if (typeof body.initial_comment === "string") file.initialComment = body.initial_comment;
      if (typeof body.thread_ts === "string") file.threadTs = body.thread_ts;
      done.push({ id: file.id, name: file.filename, title: file.title ?? file.filename, size: file.length });
    }
    for (const wake of this.waiters.splice(0)) wake();
    return { ok: true, files: done };
  }

  /** The files shared so far (completed), in order. */
  shared(): UploadedFile[] {
    return [...this.files.values()].filter((file) => file.completed);
  }

  /** Resolves with the shared files once there are at least `count`. */
  waitFor(count = 1, timeoutMs = 15_000): Promise<UploadedFile[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`fewer than ${count} files within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const check = () => {
        const shared = this.shared();
        if (shared.length >= count) {
          clearTimeout(timer);
          resolve(shared);
        } else this.waiters.push(check);
      };
      check();
    });
  }
}
