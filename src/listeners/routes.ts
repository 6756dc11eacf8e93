import {
  ADMIN_ACTIONS,
  AUDIT_BUTTONS,
  BATCH_ACTIONS,
  BATCH_APPROVE_VIEW,
  BATCH_FORM_VIEW,
  BATCH_REJECT_VIEW,
  CONNECT_VIEW,
  CREATE_INVOICE_VIEW,
  CREATE_NOW_ACTION,
  EXPORT_ACTIONS,
  FEED_ACTIONS,
  FEED_FORM_VIEW,
  INVOICE_ACTIONS,
  LINK_ACTIONS,
  LIST_ACTIONS,
  METHOD_ALERT_ACTIONS,
  METHOD_SWITCH_VIEW,
  METHOD_WATCH_VIEW,
  OPEN_PAYMENT_PAGE_ACTION,
  PAYMETHODS_ACTIONS,
  PAYOUT_ACTIONS,
  PAYOUT_APPROVE_VIEW,
  PAYOUT_REJECT_VIEW,
  PAYOUT_REQUEST_VIEW,
  PAYOUT_SETUP_VIEW,
  RECIPIENT_ACTIONS,
  RECIPIENT_ADD_VIEW,
  RECIPIENT_CONFIRM_VIEW,
  REFUND_ACTION,
  REPORT_ACTIONS,
  SCHEDULE_ACTIONS,
  UNPAID_ACTIONS,
  WATCH_ACTIONS,
} from "../blocks/ids.js";
import { cancelDisconnect, disconnect, openConnect } from "./actions/admin.js";
import { auditOlderButton } from "./actions/audit.js";
import { createNowButtonPressed } from "./actions/create-now.js";
import { cancelExport } from "./actions/export.js";
import { openFeedSettings } from "./actions/feed.js";
import { invoiceCardButton } from "./actions/invoice.js";
import { invoiceListButton } from "./actions/invoice-list.js";
import { copyLinkPressed, stopRemindingPressed } from "./actions/link-reminder.js";
import { openPaymentPage } from "./actions/links.js";
import { methodAlertMethods, methodAlertSnooze } from "./actions/method-alert.js";
import { methodAlertSwitchOff } from "./actions/method-switch.js";
import { paymethodsPageButton } from "./actions/paymethods.js";
import { payoutCancelButton, payoutVoteButton } from "./actions/payout.js";
import { batchButton } from "./actions/payout-batch.js";
import { recipientConfirmButton, recipientRemoveButton } from "./actions/payout-recipient.js";
import { refundButton } from "./actions/payout-refund.js";
import { reissueButtonPressed } from "./actions/reissue.js";
import { cancelReport } from "./actions/report.js";
import { scheduleButtonPressed } from "./actions/schedules.js";
import { unpaidPageButtonPressed } from "./actions/unpaid.js";
import { stopWatch } from "./actions/watch.js";
import { BALANCE_COMMAND, balanceCommand } from "./commands/balance.js";
import { INVOICE_COMMAND, invoiceCommand } from "./commands/invoice.js";
import { PAYMETHODS_COMMAND, paymethodsCommand } from "./commands/paymethods.js";
import { PAYOUT_COMMAND, payoutCommand } from "./commands/payout.js";
import { homeOpened } from "./events/home.js";
import { linkShared } from "./events/link-shared.js";
import { appUninstalled, appUninstalledTeam, tokensRevoked } from "./events/uninstall.js";
import type { Route } from "./router.js";
import { connectSubmission } from "./views/connect.js";
import { createInvoiceSubmission } from "./views/create-invoice.js";
import { feedFormSubmission } from "./views/feed-form.js";
import { methodSwitchSubmission } from "./views/method-switch.js";
import { methodWatchSubmission } from "./views/method-watch.js";
import { batchFormSubmission, batchVoteSubmission } from "./views/payout-batch.js";
import { recipientAddSubmission, recipientConfirmSubmission } from "./views/payout-recipient.js";
import { payoutRequestSubmission } from "./views/payout-request.js";
import { payoutSetupSubmission } from "./views/payout-setup.js";
import { payoutVoteSubmission } from "./views/payout-vote.js";

/**
 * Everything Kassa answers, and which handler answers it. To add one, export a handler from its
 * folder (`(deps) => async (args) => …`, typed with CommandArgs, ActionArgs, ViewArgs or EventArgs)
 * and add its line here; a new command or event also goes in manifest.yml (test/manifest.test.ts).
 */
export const ROUTES: readonly Route[] = [
  { command: INVOICE_COMMAND, handler: invoiceCommand },
  { command: PAYMETHODS_COMMAND, handler: paymethodsCommand },
  { command: BALANCE_COMMAND, handler: balanceCommand },
  { command: PAYOUT_COMMAND, handler: payoutCommand },

  { action: OPEN_PAYMENT_PAGE_ACTION, handler: openPaymentPage },
  { action: PAYMETHODS_ACTIONS.previous, handler: paymethodsPageButton },
  { action: PAYMETHODS_ACTIONS.next, handler: paymethodsPageButton },
  { action: PAYMETHODS_ACTIONS.refresh, handler: paymethodsPageButton },
  { action: PAYMETHODS_ACTIONS.share, handler: paymethodsPageButton },
  { action: METHOD_ALERT_ACTIONS.snooze, handler: methodAlertSnooze },
  { action: METHOD_ALERT_ACTIONS.methods, handler: methodAlertMethods },
  { action: INVOICE_ACTIONS.refresh, handler: invoiceCardButton },
  { action: INVOICE_ACTIONS.share, handler: invoiceCardButton },
  { action: INVOICE_ACTIONS.open, handler: invoiceCardButton },
  { action: LIST_ACTIONS.previous, handler: invoiceListButton },
  { action: LIST_ACTIONS.next, handler: invoiceListButton },
  { action: LIST_ACTIONS.share, handler: invoiceListButton },
  { action: UNPAID_ACTIONS.previous, handler: unpaidPageButtonPressed },
  { action: UNPAID_ACTIONS.next, handler: unpaidPageButtonPressed },
  { action: WATCH_ACTIONS.stop, handler: stopWatch },
  { action: CREATE_NOW_ACTION, handler: createNowButtonPressed },
  { action: LINK_ACTIONS.reissue, handler: reissueButtonPressed },
  { action: SCHEDULE_ACTIONS.pause, handler: scheduleButtonPressed },
  { action: SCHEDULE_ACTIONS.resume, handler: scheduleButtonPressed },
  { action: SCHEDULE_ACTIONS.remove, handler: scheduleButtonPressed },
  { action: AUDIT_BUTTONS.older, handler: auditOlderButton },
  { action: ADMIN_ACTIONS.openConnect, handler: openConnect },
  { action: ADMIN_ACTIONS.disconnect, handler: disconnect },
  { action: ADMIN_ACTIONS.cancel, handler: cancelDisconnect },
  { action: FEED_ACTIONS.settings, handler: openFeedSettings },
  { action: EXPORT_ACTIONS.cancel, handler: cancelExport },
  { action: REPORT_ACTIONS.cancel, handler: cancelReport },
  { action: PAYOUT_ACTIONS.approve, handler: payoutVoteButton },
  { action: PAYOUT_ACTIONS.reject, handler: payoutVoteButton },
  { action: PAYOUT_ACTIONS.cancel, handler: payoutCancelButton },
  { action: REFUND_ACTION, handler: refundButton },
  { action: BATCH_ACTIONS.approve, handler: batchButton },
  { action: BATCH_ACTIONS.reject, handler: batchButton },
  { action: BATCH_ACTIONS.drop, handler: batchButton },
  { action: BATCH_ACTIONS.cancel, handler: batchButton },
  { action: METHOD_ALERT_ACTIONS.switchOff, handler: methodAlertSwitchOff },
  { action: LINK_ACTIONS.copy, handler: copyLinkPressed },
  { action: LINK_ACTIONS.stopReminding, handler: stopRemindingPressed },
  { action: RECIPIENT_ACTIONS.confirm, handler: recipientConfirmButton },
  { action: RECIPIENT_ACTIONS.remove, handler: recipientRemoveButton },

  { view: CONNECT_VIEW, handler: connectSubmission },
  { view: CREATE_INVOICE_VIEW, handler: createInvoiceSubmission },
  { view: FEED_FORM_VIEW, handler: feedFormSubmission },
  { view: PAYOUT_SETUP_VIEW, handler: payoutSetupSubmission },
  { view: METHOD_WATCH_VIEW, handler: methodWatchSubmission },
  { view: PAYOUT_REQUEST_VIEW, handler: payoutRequestSubmission },
  { view: PAYOUT_APPROVE_VIEW, handler: payoutVoteSubmission },
  { view: PAYOUT_REJECT_VIEW, handler: payoutVoteSubmission },
  { view: METHOD_SWITCH_VIEW, handler: methodSwitchSubmission },
  { view: RECIPIENT_ADD_VIEW, handler: recipientAddSubmission },
  { view: RECIPIENT_CONFIRM_VIEW, handler: recipientConfirmSubmission },
  { view: BATCH_FORM_VIEW, handler: batchFormSubmission },
  { view: BATCH_APPROVE_VIEW, handler: batchVoteSubmission },
  { view: BATCH_REJECT_VIEW, handler: batchVoteSubmission },

  { event: "app_home_opened", handler: homeOpened },
  { event: "app_uninstalled", handler: appUninstalled },
  { event: "tokens_revoked", handler: tokensRevoked },
  { event: "app_uninstalled_team", handler: appUninstalledTeam },
  { event: "link_shared", handler: linkShared },
];

/** Everything the app answers, read from ROUTES; the manifest test checks manifest.yml declares these. */
export const HANDLED = {
  commands: ROUTES.flatMap((route) => ("command" in route ? [route.command] : [])),
  events: ROUTES.flatMap((route) => ("event" in route ? [route.event] : [])),
  actions: ROUTES.flatMap((route) => ("action" in route ? [route.action] : [])),
  views: ROUTES.flatMap((route) => ("view" in route ? [route.view] : [])),
};
