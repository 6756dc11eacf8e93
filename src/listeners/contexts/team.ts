/**
 * The workspace a button press or modal submission came from: `body.team` when Slack sends it (it
 * may be null, e.g. for an app installed across an Enterprise Grid organisation), else the user's
 * own workspace, else "".
 */
export function teamIdOf(body: { team?: { id: string } | null; user: { team_id?: string } }): string {
  return body.team?.id ?? body.user.team_id ?? "";
}
