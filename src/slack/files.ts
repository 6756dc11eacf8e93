import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { slackApiError } from "./error.js";
import { retryAfterMsOf } from "./failures.js";

/** Slack's answers Kassa reads here, checked: a conversation's id, an upload address, a shared file. */
const openedSchema = z.object({ channel: z.object({ id: z.string().min(1) }) });
const uploadUrlSchema = z.object({ upload_url: z.url(), file_id: z.string().min(1) });
const completedSchema = z.object({ files: z.array(z.object({ id: z.string().min(1) })).min(1) });

/** How long the upload of a file's bytes may take: a month's CSV is megabytes, a chart some 50 KB. */
export const UPLOAD_TIMEOUT_MS = 120_000;
export const SMALL_UPLOAD_TIMEOUT_MS = 15_000;

/**
 * Why a file could not go: Kassa may not upload files (`files:write`) or open direct messages
 * (`im:write`) in this workspace, which an admin fixes by reinstalling; or anything else.
 */
export type UploadFailure = "missing_scope" | "failed";

export class UploadError extends Error {
  override readonly name = "UploadError";
  constructor(
    readonly failure: UploadFailure,
    readonly slackError: string,
    /** Slack refused for the rate: when it said to try again (ms). */
    readonly retryAfterMs?: number,
  ) {
    super(`file not uploaded: ${slackError}`);
  }
}

function failure(error: unknown): UploadError {
  const code = slackApiError(error);
  const scope = code === "missing_scope" || code === "not_allowed_token_type" || code === "no_permission";
  return new UploadError(
    scope ? "missing_scope" : "failed",
    code ?? (error instanceof Error ? error.message : String(error)),
    retryAfterMsOf(error),
  );
}

/** The direct message channel between Kassa and `userId` (conversations.open; scope im:write). */
export async function directChannel(client: webApi.WebClient, userId: string): Promise<string> {
  try {
    return openedSchema.parse(await client.conversations.open({ users: userId })).channel.id;
  } catch (error) {
    throw failure(error);
  }
}

/** A file's content: bytes in memory (a chart), or a file on disk of `length` bytes (an export). */
export type FileContent = { bytes: Buffer } | { path: string; length: number };

/**
 * Uploads a file the files.uploadV2 way: files.getUploadURLExternal (name, length), the bytes POSTed
 * to the address it gives (streamed from disk for an export: a month's CSV is never copied in
 * memory, as WebClient.filesUploadV2 would copy it twice), then files.completeUploadExternal,
 * shared in `channel` with `comment` (private to Kassa without a channel). Resolves with the file's
 * id; fails with UploadError.
 */
export async function uploadFile(
  client: webApi.WebClient,
  file: FileContent & {
    filename: string;
    title: string;
    channel?: string;
    /** The thread in `channel` it is shared in. */
    threadTs?: string;
    comment?: string;
    altText?: string;
  },
): Promise<string> {
  try {
    const length = "bytes" in file ? file.bytes.length : file.length;
    const target = uploadUrlSchema.parse(
      await client.files.getUploadURLExternal({
        filename: file.filename,
        length,
        ...(file.altText ? { alt_text: file.altText } : {}),
      }),
    );
    const body = "bytes" in file ? new Uint8Array(file.bytes) : Readable.toWeb(createReadStream(file.path));
    const sent = await fetch(target.upload_url, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", "content-length": String(length) },
      body,
      duplex: "half",
      // A chart is waited for by a person reading a report: it does not get an export's minutes.
      signal: AbortSignal.timeout("bytes" in file ? SMALL_UPLOAD_TIMEOUT_MS : UPLOAD_TIMEOUT_MS),
    });
    await sent.arrayBuffer();
    if (!sent.ok) throw new Error(`the upload address answered HTTP ${sent.status}`);
    const done = completedSchema.parse(await completeUpload(client, target.file_id, file));
    return done.files[0]?.id ?? target.file_id;
  } catch (error) {
    throw error instanceof UploadError ? error : failure(error);
  }
}

/** files.completeUploadExternal: shared in `channel` (in its thread `threadTs`), with `comment`; private without. */
function completeUpload(
  client: webApi.WebClient,
  id: string,
  file: { title: string; channel?: string; threadTs?: string; comment?: string },
) {
  const files: [{ id: string; title: string }] = [{ id, title: file.title }];
  const comment = file.comment ? { initial_comment: file.comment } : {};
  if (file.channel && file.threadTs)
    return client.files.completeUploadExternal({
      files,
      channel_id: file.channel,
      thread_ts: file.threadTs,
      ...comment,
    });
  return client.files.completeUploadExternal({
    files,
    ...(file.channel ? { channel_id: file.channel } : {}),
    ...comment,
  });
}
