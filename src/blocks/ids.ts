// Every action id and view callback id Kassa puts in Block Kit, in one place: the route table
// (src/listeners/routes.ts) and the builders both name them from here, so a grep for an id finds
// its button and its handler. Input block ids stay with their modal (src/blocks/*-modal builders).

/** open: a feed message's "Open full card" (the card privately, with Share). */
export const INVOICE_ACTIONS = {
  refresh: "invoice_refresh",
  share: "invoice_share",
  open: "invoice_open",
} as const;

/** The link button to the payment page (cards and unfurls); Slack still posts its click to us. */
export const OPEN_PAYMENT_PAGE_ACTION = "open_payment_page";

export const WATCH_ACTIONS = { stop: "invoice_stop_watch" } as const;
/** Create now, on the note that Kassa is not sure an invoice was made (issue 51). */
export const CREATE_NOW_ACTION = "invoice_create_now";

/** /invoice list: its pages and Share in channel (each row's button is INVOICE_ACTIONS.open). */
export const LIST_ACTIONS = {
  previous: "invoice_list_previous",
  next: "invoice_list_next",
  share: "invoice_list_share",
} as const;

export const PAYMETHODS_ACTIONS = {
  previous: "paymethods_previous",
  next: "paymethods_next",
  refresh: "paymethods_refresh",
  share: "paymethods_share",
} as const;

export const ADMIN_ACTIONS = {
  openConnect: "kassa_open_connect",
  disconnect: "kassa_disconnect",
  cancel: "kassa_disconnect_cancel",
} as const;

/** The Cancel button on an export's progress message, and on a report's. */
export const EXPORT_ACTIONS = { cancel: "invoice_export_cancel" } as const;
export const REPORT_ACTIONS = { cancel: "invoice_report_cancel" } as const;

export const CONNECT_VIEW = "kassa_connect";

export const CREATE_INVOICE_VIEW = "kassa_create_invoice";

/** A feed's Settings (its welcome message, /invoice status, App Home): opens the feed form. */
export const FEED_ACTIONS = { settings: "kassa_feed_settings" } as const;

export const FEED_FORM_VIEW = "kassa_feed_form";

/** `/payout setup`: a register's payout policy form. */
export const PAYOUT_SETUP_VIEW = "kassa_payout_setup";

/** A payout request's card: Approve and Reject (approvers), Cancel (the requester's copy). */
export const PAYOUT_ACTIONS = {
  approve: "kassa_payout_approve",
  reject: "kassa_payout_reject",
  cancel: "kassa_payout_cancel",
} as const;

/** Refund, on a paid invoice's card where the register's payouts are on (issue 52): the refund form. */
export const REFUND_ACTION = "kassa_invoice_refund";

/** `/payout`'s request form, and the modals behind Approve and Reject. */
export const PAYOUT_REQUEST_VIEW = "kassa_payout_request";
export const PAYOUT_APPROVE_VIEW = "kassa_payout_approve";
export const PAYOUT_REJECT_VIEW = "kassa_payout_reject";

/** A batch's card (issue 52): Approve and Reject (approvers), Drop refused rows and Cancel batch (its requester). */
export const BATCH_ACTIONS = {
  approve: "kassa_batch_approve",
  reject: "kassa_batch_reject",
  drop: "kassa_batch_drop",
  cancel: "kassa_batch_cancel",
} as const;

/** `/payout batch`'s paste form, and the modals behind a batch's Approve and Reject. */
export const BATCH_FORM_VIEW = "kassa_batch_form";
export const BATCH_APPROVE_VIEW = "kassa_batch_approve";
export const BATCH_REJECT_VIEW = "kassa_batch_reject";

/** A recipient's card (Confirm, approvers) and `/payout recipient remove`'s Remove (admins). */
export const RECIPIENT_ACTIONS = {
  confirm: "kassa_recipient_confirm",
  remove: "kassa_recipient_remove",
} as const;

/** `/payout recipient add`'s form, and the modal behind a recipient's Confirm. */
export const RECIPIENT_ADD_VIEW = "kassa_recipient_add";
export const RECIPIENT_CONFIRM_VIEW = "kassa_recipient_confirm";

/** `/invoice audit`: the next, older page of entries. */
export const AUDIT_BUTTONS = { older: "kassa_audit_older" } as const;

/** `/paymethods off|on|surcharge` and the alert's Switch off: the confirmation modal. */
export const METHOD_SWITCH_VIEW = "kassa_method_switch";

/** `/paymethods watch`: a register's payment methods watch form. */
export const METHOD_WATCH_VIEW = "kassa_method_watch";

/**
 * A payment method's alert (the methods watch): Switch off at the service (opens the confirmation),
 * Snooze 2 h, Methods (the `/paymethods` list, privately).
 */
export const METHOD_ALERT_ACTIONS = {
  switchOff: "method_alert_switch_off",
  snooze: "method_alert_snooze",
  methods: "method_alert_methods",
} as const;

/**
 * A payment link's buttons (issue 51): Re-issue (an expired unpaid card, a reminder, `/invoice
 * reissue`'s warning), Copy link and Stop reminding (a reminder).
 */
export const LINK_ACTIONS = {
  reissue: "kassa_link_reissue",
  copy: "kassa_link_copy",
  stopReminding: "kassa_link_stop_reminding",
} as const;

/** `/invoice recurring`: a schedule's Pause, Resume and Delete (its owner and admins). */
export const SCHEDULE_ACTIONS = {
  pause: "kassa_schedule_pause",
  resume: "kassa_schedule_resume",
  remove: "kassa_schedule_delete",
} as const;

/** `/invoice unpaid`: its pages. */
export const UNPAID_ACTIONS = { previous: "kassa_unpaid_previous", next: "kassa_unpaid_next" } as const;
