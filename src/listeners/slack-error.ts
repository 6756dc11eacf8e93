/** Slack's own error code (`missing_scope`, `expired_trigger_id`, ...) when it answered, else the message. */
export function slackErrorCode(error: unknown): string {
  const code = (error as { data?: { error?: unknown } } | null)?.data?.error;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message : String(error);
}
