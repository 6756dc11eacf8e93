import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { slackApiError } from "./error.js";

/** Slack's answers Kassa reads here, checked: a conversation's id, an uploaded file's id. */
const openedSchema = z.object({ channel: z.object({ id: z.string().min(1) }) });
const uploadedSchema = z.object({
  files: z.array(z.object({ files: z.array(z.object({ id: z.string().min(1) })).optional() })),
});

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

/**
 * Uploads `bytes` with files.uploadV2 (files.getUploadURLExternal, the upload, then
 * files.completeUploadExternal), shared in `channel` with `comment` (or kept private to Kassa without
 * a channel). Resolves with the file's id; fails with UploadError.
 */
export async function uploadFile(
  client: webApi.WebClient,
  file: {
    bytes: Buffer;
    filename: string;
    title: string;
    channel?: string;
    comment?: string;
    altText?: string;
  },
): Promise<string> {
  try {
    const common = {
      file: file.bytes,
      filename: file.filename,
      title: file.title,
      ...(file.comment ? { initial_comment: file.comment } : {}),
      ...(file.altText ? { alt_text: file.altText } : {}),
    };
    const answer = await client.filesUploadV2(
      file.channel ? { ...common, channel_id: file.channel } : common,
    );
    const id = uploadedSchema.parse(answer).files[0]?.files?.[0]?.id;
    if (!id) throw new Error("files.completeUploadExternal named no file");
    return id;
  } catch (error) {
    throw error instanceof UploadError ? error : failure(error);
  }
}
