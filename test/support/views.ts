/** A modal Kassa asked Slack to open (views.open / views.update), as a test reads it back. */
export type OpenedView = {
  callback_id?: string;
  private_metadata?: string;
  blocks: Array<Record<string, unknown>>;
};

/** The view of a views.open or views.update call's body (the form sends it as JSON text). */
export const viewOf = (body: Record<string, unknown>): OpenedView =>
  (typeof body.view === "string" ? JSON.parse(body.view) : body.view) as OpenedView;
