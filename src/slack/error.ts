/** The error code in Slack's answer (`missing_scope`, `ratelimited`, ...); undefined when Slack did not answer. */
export function slackApiError(error: unknown): string | undefined {
  const code = (error as { data?: { error?: unknown } } | null)?.data?.error;
  return typeof code === "string" ? code : undefined;
}

/** Slack's own error code (`missing_scope`, `expired_trigger_id`, ...) when it answered, else the message. */
export function slackErrorCode(error: unknown): string {
  return slackApiError(error) ?? (error instanceof Error ? error.message : String(error));
}
