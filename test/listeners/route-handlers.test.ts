import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SALT, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { CONNECT_FROM } from "../../src/blocks/admin.js";
import {
  auditPageButton,
  cancelReadButton,
  createNowButton,
  disconnectButton,
  feedSettingsButton,
  invoiceButton,
  linkButton,
  listPageButton,
  methodAlertButton,
  paymethodsPageButton,
  scheduleButton,
  stopButton,
  unpaidPageButton,
} from "../../src/blocks/button-values.js";
import { CONNECT_FIELDS } from "../../src/blocks/connect-modal.js";
import { FEED_FIELDS } from "../../src/blocks/feed-form.js";
import {
  ADMIN_ACTIONS,
  AUDIT_BUTTONS,
  BATCH_ACTIONS,
  BATCH_APPROVE_VIEW,
  BATCH_FORM_VIEW,
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
} from "../../src/blocks/ids.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";
import { METHOD_WATCH_FIELDS } from "../../src/blocks/method-watch-form.js";
import { PAYOUT_FIELDS } from "../../src/blocks/payout-setup.js";
import { createLink } from "../../src/links/create.js";
import { cancelDisconnect, disconnect, openConnect } from "../../src/listeners/actions/admin.js";
import { auditOlderButton } from "../../src/listeners/actions/audit.js";
import { createNowButtonPressed } from "../../src/listeners/actions/create-now.js";
import { cancelExport } from "../../src/listeners/actions/export.js";
import { openFeedSettings } from "../../src/listeners/actions/feed.js";
import { invoiceCardButton } from "../../src/listeners/actions/invoice.js";
import { invoiceListButton } from "../../src/listeners/actions/invoice-list.js";
import { copyLinkPressed, stopRemindingPressed } from "../../src/listeners/actions/link-reminder.js";
import { openPaymentPage } from "../../src/listeners/actions/links.js";
import { methodAlertMethods, methodAlertSnooze } from "../../src/listeners/actions/method-alert.js";
import { methodAlertSwitchOff } from "../../src/listeners/actions/method-switch.js";
import { paymethodsPageButton as paymethodsPageHandler } from "../../src/listeners/actions/paymethods.js";
import { payoutCancelButton, payoutVoteButton } from "../../src/listeners/actions/payout.js";
import { batchButton } from "../../src/listeners/actions/payout-batch.js";
import {
  recipientConfirmButton,
  recipientRemoveButton,
} from "../../src/listeners/actions/payout-recipient.js";
import { refundButton } from "../../src/listeners/actions/payout-refund.js";
import { reissueButtonPressed } from "../../src/listeners/actions/reissue.js";
import { cancelReport } from "../../src/listeners/actions/report.js";
import { scheduleButtonPressed } from "../../src/listeners/actions/schedules.js";
import { unpaidPageButtonPressed } from "../../src/listeners/actions/unpaid.js";
import { stopWatch } from "../../src/listeners/actions/watch.js";
import { balanceCommand } from "../../src/listeners/commands/balance.js";
import { invoiceCommand } from "../../src/listeners/commands/invoice.js";
import { paymethodsCommand } from "../../src/listeners/commands/paymethods.js";
import { payoutCommand } from "../../src/listeners/commands/payout.js";
import { homeOpened } from "../../src/listeners/events/home.js";
import { linkShared } from "../../src/listeners/events/link-shared.js";
import { appUninstalled, appUninstalledTeam, tokensRevoked } from "../../src/listeners/events/uninstall.js";
import { ROUTES } from "../../src/listeners/routes.js";
import { connectSubmission } from "../../src/listeners/views/connect.js";
import { createInvoiceSubmission } from "../../src/listeners/views/create-invoice.js";
import { feedFormSubmission } from "../../src/listeners/views/feed-form.js";
import { methodSwitchSubmission } from "../../src/listeners/views/method-switch.js";
import { methodWatchSubmission } from "../../src/listeners/views/method-watch.js";
import { batchFormSubmission, batchVoteSubmission } from "../../src/listeners/views/payout-batch.js";
import {
  recipientAddSubmission,
  recipientConfirmSubmission,
} from "../../src/listeners/views/payout-recipient.js";
import { payoutRequestSubmission } from "../../src/listeners/views/payout-request.js";
import { payoutSetupSubmission } from "../../src/listeners/views/payout-setup.js";
import { payoutVoteSubmission } from "../../src/listeners/views/payout-vote.js";
import { DEFAULT_FAILURE_RULE, DEFAULT_SILENCE_RULE } from "../../src/method-watch/state.js";
import { periodBounds } from "../../src/reports/periods.js";
import {
  type Acks,
  ADMIN,
  buttonArgs,
  CHANNEL,
  commandArgs,
  eventArgs,
  type ListenerWorld,
  listenerWorld,
  MEMBER,
  submissionArgs,
  TEAM,
} from "../support/listener-world.js";
import { viewOf } from "../support/views.js";

const UNPAID = "715308958_rPwTzvsvCm";
const PAID = "715308966_PaidBitcoin";

/**
 * Every route's handler called directly, with Bolt's own argument types and the real rest of Kassa
 * behind it (store, payment service stand-in, Slack stand-in): one test or more per handler, and a
 * check that no route of the table is left without one.
 */
const covered = new Set<unknown>();
function cover(handler: unknown): void {
  covered.add(handler);
}

let world: ListenerWorld;
beforeEach(async () => {
  world = await listenerWorld();
});
afterEach(async () => {
  await world.close();
});

const lastLine = () => world.lines.filter((line) => line.outcome !== undefined).at(-1);
const reply = (id: string) => world.slack.waitForReply(id, { timeoutMs: 3000 }).then((entry) => entry.body);

describe("commands", () => {
  it("/invoice <id> posts the invoice's card in the channel and logs its state", async () => {
    cover(invoiceCommand);
    const acks: Acks = [];
    await invoiceCommand(world.deps)(
      commandArgs(world, { command: "/invoice", text: PAID, replyId: "inv" }, acks),
    );
    expect(acks).toEqual([undefined]);
    const posted = world.slack.callsOf("chat.postMessage");
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body.channel).toBe(CHANNEL);
    expect(JSON.stringify(posted[0]?.body)).toContain("Bitcoin");
    expect(lastLine()).toMatchObject({ command: "/invoice", outcome: "ok", state: "payed", invoice: PAID });
  });

  it("/invoice with unreadable text shows how to write it", async () => {
    await invoiceCommand(world.deps)(
      commandArgs(world, { command: "/invoice", text: "what?", replyId: "bad" }),
    );
    expect(JSON.stringify(await reply("bad"))).toContain("/invoice");
    expect(lastLine()).toMatchObject({ outcome: "usage" });
  });

  it("/invoice <id> in a workspace that keeps cards private sends the card to the asker with Share", async () => {
    await world.deps.stores.settings.update(TEAM, { replyVisibility: "private" });
    await invoiceCommand(world.deps)(
      commandArgs(world, { command: "/invoice", text: PAID, replyId: "private" }),
    );
    const body = await reply("private");
    expect(body.response_type).toBe("ephemeral");
    expect(JSON.stringify(body)).toContain(INVOICE_ACTIONS.share);
    expect(world.slack.callsOf("chat.postMessage")).toHaveLength(0);
  });

  it("a person over the rate limit is told to slow down, and the line says which limit", async () => {
    await world.close();
    world = await listenerWorld({ userPerMinute: 1 });
    const args = () => commandArgs(world, { command: "/invoice", text: "help", replyId: "limit" });
    await invoiceCommand(world.deps)(args());
    await invoiceCommand(world.deps)(args());
    const second = await world.slack.waitForReply("limit", { count: 2, timeoutMs: 3000 });
    expect(JSON.stringify(second.body)).toContain("Slow down");
    expect(world.lines.map((line) => line.outcome).filter(Boolean)).toEqual(["help", "rate_limited"]);
    expect(lastLine()).toMatchObject({ command: "/invoice", team: TEAM, user: ADMIN, limit: "user" });
  });

  it("/paymethods <filter> lists the matching methods", async () => {
    cover(paymethodsCommand);
    await paymethodsCommand(world.deps)(
      commandArgs(world, { command: "/paymethods", text: "btc", replyId: "pm" }),
    );
    expect(JSON.stringify(await reply("pm"))).toContain("Bitcoin");
    expect(lastLine()).toMatchObject({ command: "/paymethods", outcome: "ok", filter: "btc" });
  });

  it("/balance answers an admin privately with the balances", async () => {
    cover(balanceCommand);
    await balanceCommand(world.deps)(commandArgs(world, { command: "/balance", text: "", replyId: "bal" }));
    const body = await reply("bal");
    expect(body.response_type).toBe("ephemeral");
    expect(lastLine()).toMatchObject({ command: "/balance", outcome: "ok", upstreamStatus: 200 });
  });

  it("/balance tells someone who may not see it who can", async () => {
    await balanceCommand(world.deps)(
      commandArgs(world, { command: "/balance", text: "", user: MEMBER, replyId: "bal-member" }),
    );
    expect(JSON.stringify(await reply("bal-member"))).toMatch(/admin/i);
    expect(lastLine()).toMatchObject({ outcome: "not_allowed" });
  });
});

describe("buttons", () => {
  it("the payment page link is only acknowledged", async () => {
    cover(openPaymentPage);
    const acks: Acks = [];
    await openPaymentPage()(
      buttonArgs(world, { actionId: OPEN_PAYMENT_PAGE_ACTION, value: "", replyId: "link" }, acks),
    );
    expect(acks).toHaveLength(1);
    expect(world.slack.replies).toHaveLength(0);
    expect(world.slack.apiCalls).toHaveLength(0);
  });

  it("a /paymethods page button redraws the list in place", async () => {
    cover(paymethodsPageHandler);
    const value = paymethodsPageButton.write({ f: "", p: 1 });
    await paymethodsPageHandler(world.deps)(
      buttonArgs(world, { actionId: PAYMETHODS_ACTIONS.refresh, value, replyId: "pm-page" }),
    );
    const body = await reply("pm-page");
    expect(body.replace_original).toBe(true);
    expect(lastLine()).toMatchObject({ action: PAYMETHODS_ACTIONS.refresh, outcome: "ok", page: 1 });
  });

  it("a method alert's Snooze quiets the method for 2 h and says who in the alert's thread", async () => {
    cover(methodAlertSnooze);
    const value = methodAlertButton.write({ r: "main", c: "BITCOIN" });
    const press = { actionId: METHOD_ALERT_ACTIONS.snooze, value, user: MEMBER };
    const card = { ts: "1764000000.000200", text: "alert", blocks: [] };
    // The watch is off: nothing to snooze, said to the presser alone.
    await methodAlertSnooze(world.deps)(buttonArgs(world, { ...press, replyId: "snooze-off", card }));
    expect(JSON.stringify(await reply("snooze-off"))).toContain("is off");
    expect(lastLine()).toMatchObject({ outcome: "method_snooze_watch_off", method: "BITCOIN" });
    const settings = {
      channel: CHANNEL,
      mention: [],
      failure: DEFAULT_FAILURE_RULE,
      silence: DEFAULT_SILENCE_RULE,
    };
    await world.deps.methodWatches.set(
      TEAM,
      { ...settings, by: ADMIN, at: new Date().toISOString() },
      Date.now(),
    );
    await methodAlertSnooze(world.deps)(buttonArgs(world, { ...press, replyId: "snooze", card }));
    const thread = world.slack.callsOf("chat.postMessage").at(-1)?.body;
    expect(thread?.thread_ts).toBe(card.ts);
    expect(JSON.stringify(thread)).toContain(`<@${MEMBER}> snoozed the alerts about`);
    expect(lastLine()).toMatchObject({ outcome: "method_snoozed", method: "BITCOIN", snoozeSaid: "thread" });
    const snoozed = (await world.deps.methodWatches.read(TEAM)).snoozed.BITCOIN ?? 0;
    expect(snoozed - world.deps.now().getTime()).toBeGreaterThan(2 * 3_600_000 - 60_000);
  });

  it("a method alert's Methods answers the method list to the presser alone", async () => {
    cover(methodAlertMethods);
    const value = methodAlertButton.write({ r: "main", c: "BITCOIN" });
    await methodAlertMethods(world.deps)(
      buttonArgs(world, {
        actionId: METHOD_ALERT_ACTIONS.methods,
        value,
        user: MEMBER,
        replyId: "alert-methods",
      }),
    );
    const body = await reply("alert-methods");
    expect(body.response_type).toBe("ephemeral");
    expect(body.replace_original).toBe(false);
    expect(JSON.stringify(body)).toContain("Bitcoin");
    expect(lastLine()).toMatchObject({ action: METHOD_ALERT_ACTIONS.methods, outcome: "ok" });
  });

  it("Refresh on an invoice card reads it again and redraws the card", async () => {
    cover(invoiceCardButton);
    const value = invoiceButton.write({ t: TEAM, id: PAID, s: "notpayed" });
    await invoiceCardButton(world.deps)(
      buttonArgs(world, { actionId: INVOICE_ACTIONS.refresh, value, replyId: "refresh" }),
    );
    const body = await reply("refresh");
    expect(body.replace_original).toBe(true);
    expect(lastLine()).toMatchObject({ outcome: "ok", state: "payed", previousState: "notpayed" });
  });

  it("a card button from another workspace is refused without asking the service", async () => {
    const value = invoiceButton.write({ t: "T0OTHER", id: PAID, s: "payed" });
    const before = world.fake.requests.length;
    await invoiceCardButton(world.deps)(
      buttonArgs(world, { actionId: INVOICE_ACTIONS.refresh, value, replyId: "foreign" }),
    );
    expect(JSON.stringify(await reply("foreign"))).toContain("another workspace");
    expect(world.fake.requests).toHaveLength(before);
    expect(lastLine()).toMatchObject({ outcome: "foreign_card" });
  });

  it("a /invoice list page button shows that page", async () => {
    cover(invoiceListButton);
    const value = listPageButton.write({ t: TEAM, f: "all", p: 1 });
    await invoiceListButton(world.deps)(
      buttonArgs(world, { actionId: LIST_ACTIONS.next, value, replyId: "list" }),
    );
    expect(JSON.stringify(await reply("list"))).toContain(UNPAID);
    expect(lastLine()).toMatchObject({ outcome: "ok", upstreamStatus: 200 });
  });

  it("a /invoice unpaid page button shows that page of the links still unpaid, by customer", async () => {
    cover(unpaidPageButtonPressed);
    const ref = "abcdefgh45";
    const order = { team: TEAM, amount: "150", currency: "RUB", lifetimeMinutes: 60, creator: ADMIN };
    await world.deps.links.begin(
      TEAM,
      ref,
      { ...order, customer: "Acme", channel: CHANNEL, via: "form" },
      true,
    );
    await world.deps.links.settle(TEAM, ref, {
      status: "created",
      invoiceId: UNPAID,
      url: "https://pay.example/",
    });
    const value = unpaidPageButton.write({ t: TEAM, p: 1, d: "30d" });
    await unpaidPageButtonPressed(world.deps)(
      buttonArgs(world, { actionId: UNPAID_ACTIONS.next, value, replyId: "unpaid" }),
    );
    const shown = JSON.stringify(await reply("unpaid"));
    expect(shown).toContain("*Acme* · 1 link · 150.00 RUB");
    expect(shown).toContain(UNPAID);
    expect(lastLine()).toMatchObject({ outcome: "ok", action: "unpaid 30d", page: 1 });
  });

  it("Older on /invoice audit shows the entries before its cursor to an admin, and refuses a member", async () => {
    cover(auditOlderButton);
    for (const actor of [ADMIN, ADMIN, ADMIN])
      await world.deps.audit.record({
        team: TEAM,
        actor,
        action: "digest.set",
        object: "digest",
        outcome: "done",
      });
    const value = auditPageButton.write({ t: TEAM, b: 3, p: "all" });
    await auditOlderButton(world.deps)(
      buttonArgs(world, { actionId: AUDIT_BUTTONS.older, value, ephemeral: true, replyId: "older" }),
    );
    expect((JSON.stringify(await reply("older")).match(/set a digest/g) ?? []).length).toBe(2);
    expect(lastLine()).toMatchObject({ outcome: "ok", action: "audit older 3" });
    await auditOlderButton(world.deps)(
      buttonArgs(world, { actionId: AUDIT_BUTTONS.older, value, user: MEMBER, replyId: "member" }),
    );
    expect(JSON.stringify(await reply("member"))).toContain("Only workspace admins");
    expect(lastLine()).toMatchObject({ outcome: "not_allowed" });
  });

  it("Create now makes the unsure link's invoice again, once, for its creator only", async () => {
    cover(createNowButtonPressed);
    const ref = "abcdefgh23";
    const order = { team: TEAM, amount: "150", currency: "RUB", lifetimeMinutes: 60, creator: ADMIN };
    await world.deps.links.begin(TEAM, ref, { ...order, channel: CHANNEL, via: "form" }, true);
    await world.deps.links.settle(TEAM, ref, { status: "unsure" });
    const value = createNowButton.write({ t: TEAM, k: ref });
    const press = (user: string, replyId: string) =>
      createNowButtonPressed(world.deps)(
        buttonArgs(world, { actionId: CREATE_NOW_ACTION, value, user, ephemeral: true, replyId }),
      );
    await press(MEMBER, "now-member");
    expect(JSON.stringify(await reply("now-member"))).toContain("Only <@U0ADMIN>");
    expect(world.fake.created).toHaveLength(0);
    await press(ADMIN, "now-admin");
    expect(JSON.stringify(await reply("now-admin"))).toContain("was created");
    expect(world.fake.created).toHaveLength(1);
    expect(lastLine()).toMatchObject({ outcome: "created", invoice: world.fake.created[0] });
    await press(ADMIN, "now-again");
    expect(JSON.stringify(await reply("now-again"))).toContain("pressed already");
    expect(world.fake.created).toHaveLength(1);
  });

  it("Pause, Resume and Delete change a schedule for its owner or an admin only, and show the list again", async () => {
    cover(scheduleButtonPressed);
    const schedule = await world.deps.schedules.create({
      team: TEAM,
      registerKey: TEAM,
      owner: ADMIN,
      channel: CHANNEL,
      rule: { every: "month", day: 5, at: "10:00" },
      zone: "Europe/Moscow",
      order: { amount: "1500", currency: "RUB", lifetimeMinutes: 60 },
    });
    const value = scheduleButton.write({ t: TEAM, s: schedule.id });
    const press = (actionId: string, user: string, replyId: string) =>
      scheduleButtonPressed(world.deps)(
        buttonArgs(world, { actionId, value, user, ephemeral: true, replyId }),
      );
    await press(SCHEDULE_ACTIONS.pause, MEMBER, "s-member");
    expect(JSON.stringify(await reply("s-member"))).toContain("Only its owner, <@U0ADMIN>");
    expect(lastLine()).toMatchObject({ outcome: "not_allowed" });
    await press(SCHEDULE_ACTIONS.pause, ADMIN, "s-pause");
    expect(JSON.stringify(await reply("s-pause"))).toContain(SCHEDULE_ACTIONS.resume);
    expect((await world.deps.schedules.read(TEAM, schedule.id))?.status).toBe("paused");
    await press(SCHEDULE_ACTIONS.resume, ADMIN, "s-resume");
    expect(JSON.stringify(await reply("s-resume"))).toContain(SCHEDULE_ACTIONS.pause);
    await press(SCHEDULE_ACTIONS.remove, ADMIN, "s-delete");
    expect(JSON.stringify(await reply("s-delete"))).toContain("No repeating invoices");
    expect(await world.deps.schedules.read(TEAM, schedule.id)).toBeUndefined();
    const actions = (await world.deps.audit.list(TEAM, {})).entries.map((listed) => listed.entry?.action);
    expect(actions).toEqual(
      expect.arrayContaining(["schedule.paused", "schedule.resumed", "schedule.deleted"]),
    );
  });

  it("Copy link answers with the link privately; Stop reminding turns the link's reminder off", async () => {
    cover(copyLinkPressed);
    cover(stopRemindingPressed);
    const ref = "remindme23";
    const order = {
      team: TEAM,
      amount: "150",
      currency: "RUB",
      lifetimeMinutes: 600,
      creator: ADMIN,
      remind: 60,
    };
    await world.deps.links.begin(TEAM, ref, { ...order, channel: CHANNEL, via: "form" }, true);
    const url = "https://pay.crystalpay.io/?i=715308959_Remind";
    await world.deps.links.settle(TEAM, ref, { status: "created", invoiceId: "715308959_Remind", url });
    const value = linkButton.write({ t: TEAM, k: ref });
    await copyLinkPressed(world.deps)(
      buttonArgs(world, { actionId: LINK_ACTIONS.copy, value, replyId: "copy" }),
    );
    const copied = (await reply("copy")) as { replace_original?: boolean };
    expect(JSON.stringify(copied)).toContain(`\`\`\`${url}\`\`\``);
    expect(copied.replace_original).toBe(false);
    expect(lastLine()).toMatchObject({ outcome: "ok", invoice: "715308959_Remind" });
    await stopRemindingPressed(world.deps)(
      buttonArgs(world, { actionId: LINK_ACTIONS.stopReminding, value, replyId: "quiet" }),
    );
    const stopped = (await reply("quiet")) as { replace_original?: boolean };
    expect(JSON.stringify(stopped)).toContain("Reminders stopped by <@U0ADMIN>");
    expect(JSON.stringify(stopped)).not.toContain(LINK_ACTIONS.stopReminding);
    expect(stopped.replace_original).toBe(true);
    expect((await world.deps.links.read(TEAM, ref))?.remind).toBe(0);
  });

  it("Re-issue warns while the old link works; Re-issue anyway makes one new invoice with its fields", async () => {
    cover(reissueButtonPressed);
    const draft = { amount: "150", currency: "RUB", lifetimeMinutes: 60, description: "Plan" };
    const asker = { team: TEAM, creator: ADMIN, channel: CHANNEL, via: "form", customer: "Acme" } as const;
    const made = await createLink(world.deps, TEAM, draft, asker);
    if (!made.ok) throw new Error("not created");
    const press = (e: boolean, replyId: string) =>
      reissueButtonPressed(world.deps)(
        buttonArgs(world, {
          actionId: LINK_ACTIONS.reissue,
          value: linkButton.write({ t: TEAM, k: made.ref, ...(e ? { e: 1 } : {}) }),
          ephemeral: true,
          replyId,
        }),
      );
    await press(false, "reissue-early");
    expect(JSON.stringify(await reply("reissue-early"))).toContain("still works until");
    expect(lastLine()).toMatchObject({ outcome: "reissue", result: "early" });
    expect(world.fake.created).toHaveLength(1);
    await press(true, "reissue-anyway");
    expect(JSON.stringify(await reply("reissue-anyway"))).toContain("re-issues");
    expect(world.fake.created).toHaveLength(2);
    const next = world.fake.created[1] ?? "";
    expect(world.fake.invoices.get(next)).toMatchObject({ amount: "150", description: "Plan" });
    expect(lastLine()).toMatchObject({ outcome: "reissue", result: "reissued", reissued: next });
    await press(true, "reissue-again");
    expect(JSON.stringify(await reply("reissue-again"))).toContain("re-issued already");
    expect(world.fake.created).toHaveLength(2);
  });

  it("Stop updating takes a private card out of its invoice's watch", async () => {
    cover(stopWatch);
    const value = stopButton.write({ t: TEAM, id: UNPAID });
    await stopWatch(world.deps)(
      buttonArgs(world, { actionId: WATCH_ACTIONS.stop, value, ephemeral: true, replyId: "stop" }),
    );
    expect(JSON.stringify(await reply("stop"))).toContain("no longer tells you");
    expect(lastLine()).toMatchObject({ outcome: "watch_stopped", invoice: UNPAID });
  });

  it("Cancel stops the asker's own export; someone else's press is told it is not theirs", async () => {
    cover(cancelExport);
    world.fake.historyDelayMs = 300;
    const bounds = periodBounds("7d", new Date(), "Europe/Moscow");
    if (!bounds) throw new Error("no period");
    const start = await world.deps.exports.start(
      {
        teamId: TEAM,
        userId: ADMIN,
        bounds,
        format: "csv",
        lang: "en",
        title: "Invoices in the last 7 days",
      },
      world.client,
    );
    if (!start.started) throw new Error("not started");
    const value = cancelReadButton.write({ t: TEAM, j: start.jobId });
    await cancelExport(world.deps)(
      buttonArgs(world, { actionId: EXPORT_ACTIONS.cancel, value, user: MEMBER, replyId: "theirs" }),
    );
    expect(JSON.stringify(await reply("theirs"))).toContain("Only the person who asked for this export");
    expect(lastLine()).toMatchObject({ outcome: "export_cancel", result: "not_yours" });
    await cancelExport(world.deps)(
      buttonArgs(world, { actionId: EXPORT_ACTIONS.cancel, value, replyId: "mine" }),
    );
    expect(lastLine()).toMatchObject({ outcome: "export_cancel", result: "cancelled" });
    await world.slack.waitForMessages((messages) =>
      messages.some(
        (message) =>
          message.channel === "D0ADMIN" && JSON.stringify(message.blocks).includes("cancelled by <@U0ADMIN>"),
      ),
    );
    expect(world.slack.files.shared()).toHaveLength(0);
  });

  it("Cancel on a report's progress marks the read cancelled for whichever replica reads it", async () => {
    cover(cancelReport);
    const value = cancelReadButton.write({ t: TEAM, j: "0123456789abcdef" });
    await cancelReport(world.deps)(
      buttonArgs(world, { actionId: REPORT_ACTIONS.cancel, value, ephemeral: true, replyId: "report" }),
    );
    expect(await world.deps.cancels.markedBy("0123456789abcdef")).toBe(ADMIN);
    expect(lastLine()).toMatchObject({ outcome: "report_cancel", result: "cancelled" });
  });

  it("Connect opens the modal for an admin, and tells a member who can", async () => {
    cover(openConnect);
    await openConnect(world.deps)(
      buttonArgs(world, {
        actionId: ADMIN_ACTIONS.openConnect,
        value: CONNECT_FROM.reply,
        replyId: "connect",
      }),
    );
    expect(world.slack.callsOf("views.open")).toHaveLength(1);
    expect(lastLine()).toMatchObject({ outcome: "modal_opened" });
    await openConnect(world.deps)(
      buttonArgs(world, {
        actionId: ADMIN_ACTIONS.openConnect,
        value: CONNECT_FROM.reply,
        user: MEMBER,
        replyId: "connect-member",
      }),
    );
    expect(JSON.stringify(await reply("connect-member"))).toContain("connect the cash register");
    expect(lastLine()).toMatchObject({ outcome: "not_allowed" });
  });

  it("Disconnect removes the credentials after checking the presser again", async () => {
    cover(disconnect);
    const value = disconnectButton.write({ t: TEAM });
    await disconnect(world.deps)(
      buttonArgs(world, { actionId: ADMIN_ACTIONS.disconnect, value, replyId: "disc" }),
    );
    await reply("disc");
    expect(await world.deps.stores.credentials.get(TEAM)).toBeUndefined();
    expect(lastLine()).toMatchObject({ outcome: "disconnected" });
  });

  it("a feed's Settings opens that channel's feed form for an admin, and tells a member who can", async () => {
    cover(openFeedSettings);
    const value = feedSettingsButton.write({ t: TEAM, c: CHANNEL });
    await openFeedSettings(world.deps)(
      buttonArgs(world, { actionId: FEED_ACTIONS.settings, value, replyId: "fs" }),
    );
    const opened = world.slack.callsOf("views.open");
    expect(opened).toHaveLength(1);
    const view = JSON.stringify(opened[0]?.body.view);
    expect(view).toContain(FEED_FORM_VIEW);
    expect(view).toContain("multi_users_select");
    expect(view).toContain("BITCOIN"); // the register's methods
    expect(lastLine()).toMatchObject({ outcome: "modal_opened", action: "feed" });
    await openFeedSettings(world.deps)(
      buttonArgs(world, { actionId: FEED_ACTIONS.settings, value, user: MEMBER, replyId: "fs-member" }),
    );
    expect(JSON.stringify(await reply("fs-member"))).toContain("change which channels get the payment feed");
    expect(lastLine()).toMatchObject({ outcome: "not_allowed" });
    expect(world.slack.callsOf("views.open")).toHaveLength(1);
  });

  it("Cancel closes the question and keeps the credentials", async () => {
    cover(cancelDisconnect);
    await cancelDisconnect(world.deps)(
      buttonArgs(world, { actionId: ADMIN_ACTIONS.cancel, value: "", replyId: "cancel" }),
    );
    await reply("cancel");
    expect(await world.deps.stores.credentials.get(TEAM)).toBeDefined();
  });
});

describe("modal submissions", () => {
  const text = (value: string) => ({ value: { type: "plain_text_input", value } });
  const choice = (value: string) => ({
    value: {
      type: "static_select",
      selected_option: { value, text: { type: "plain_text" as const, text: value } },
    },
  });

  it("the connect form checks the credentials with the service, saves them and says so", async () => {
    cover(connectSubmission);
    const acks: Acks = [];
    const values = {
      [CONNECT_FIELDS.login]: text("sandbox_register"),
      [CONNECT_FIELDS.secret]: text(""),
      [CONNECT_FIELDS.apiVersion]: choice("v3"),
      [CONNECT_FIELDS.visibility]: choice("private"),
    };
    const privateMetadata = JSON.stringify({ from: "command", t: TEAM });
    await connectSubmission(world.deps)(
      submissionArgs(world, { callbackId: CONNECT_VIEW, values, privateMetadata }, acks),
    );
    expect(acks).toHaveLength(1);
    expect(acks[0]).toMatchObject({ response_action: "update" });
    expect((await world.deps.stores.credentials.get(TEAM))?.account.apiVersion).toBe("v3");
    expect(lastLine()).toMatchObject({
      view: CONNECT_VIEW,
      outcome: "connected",
      apiVersion: "v3",
      manager: "admin",
    });
  });

  it("the connect form says under the field what the service refused, and saves nothing", async () => {
    const acks: Acks = [];
    const values = {
      [CONNECT_FIELDS.login]: text("sandbox_register"),
      [CONNECT_FIELDS.secret]: text("not-the-secret"),
      [CONNECT_FIELDS.apiVersion]: choice("v2"),
      [CONNECT_FIELDS.visibility]: choice("channel"),
    };
    const privateMetadata = JSON.stringify({ from: "command", t: TEAM });
    await connectSubmission(world.deps)(
      submissionArgs(world, { callbackId: CONNECT_VIEW, values, privateMetadata }, acks),
    );
    expect(acks[0]).toMatchObject({
      response_action: "errors",
      errors: { [CONNECT_FIELDS.secret]: expect.stringContaining("refused") },
    });
    expect((await world.deps.stores.credentials.get(TEAM))?.account.secret).not.toBe("not-the-secret");
    expect(lastLine()).toMatchObject({ outcome: "refused", inline: true });
  });

  it("the create form creates the invoice once and posts its card in the channel", async () => {
    cover(createInvoiceSubmission);
    const values = {
      [CREATE_FIELDS.amount]: text("1500.50"),
      [CREATE_FIELDS.currency]: choice("RUB"),
      [CREATE_FIELDS.lifetime]: text("60"),
    };
    const privateMetadata = JSON.stringify({ t: TEAM, c: CHANNEL });
    const form = { callbackId: CREATE_INVOICE_VIEW, values, privateMetadata, viewId: "V0CREATE" };
    const acks: Acks = [];
    await createInvoiceSubmission(world.deps)(submissionArgs(world, form, acks));
    expect(acks).toEqual([undefined]);
    expect(world.slack.callsOf("chat.postMessage").some((call) => call.body.channel === CHANNEL)).toBe(true);
    expect(lastLine()).toMatchObject({
      view: CREATE_INVOICE_VIEW,
      outcome: "created",
      posted: "chat.postMessage",
    });
    // The same submission again (Slack's redelivery): nothing more is created.
    const again: Acks = [];
    await createInvoiceSubmission(world.deps)(submissionArgs(world, form, again));
    expect(again[0]).toMatchObject({ response_action: "errors" });
    expect(lastLine()).toMatchObject({ outcome: "duplicate" });
    expect(world.fake.requests.filter((request) => request.path.endsWith("/invoice/create/"))).toHaveLength(
      1,
    );
  });

  it("the feed form makes the channel a feed with its filter and mentions; bad values are said next to their fields", async () => {
    cover(feedFormSubmission);
    const checked = (...values: string[]) => ({
      value: {
        type: "checkboxes",
        selected_options: values.map((value) => ({
          value,
          text: { type: "plain_text" as const, text: value },
        })),
      },
    });
    const people = (...users: string[]) => ({ value: { type: "multi_users_select", selected_users: users } });
    const privateMetadata = JSON.stringify({ t: TEAM, c: CHANNEL });
    const values = {
      [FEED_FIELDS.events]: checked("paid", "expired"),
      [FEED_FIELDS.minRub]: text("10 000"),
      [FEED_FIELDS.people]: people("U0ANNA"),
      [FEED_FIELDS.when]: checked("payments"),
      [FEED_FIELDS.mentionMin]: text("lots"),
    };
    const bad: Acks = [];
    await feedFormSubmission(world.deps)(
      submissionArgs(world, { callbackId: FEED_FORM_VIEW, values, privateMetadata }, bad),
    );
    expect(bad[0]).toMatchObject({
      response_action: "errors",
      errors: { [FEED_FIELDS.mentionMin]: expect.stringContaining("roubles") },
    });
    expect(await world.deps.feeds.channel(TEAM, CHANNEL)).toBeUndefined();

    const member: Acks = [];
    const good = { ...values, [FEED_FIELDS.mentionMin]: text("50000") };
    await feedFormSubmission(world.deps)(
      submissionArgs(
        world,
        { callbackId: FEED_FORM_VIEW, values: good, privateMetadata, user: MEMBER },
        member,
      ),
    );
    expect(member[0]).toMatchObject({
      errors: { [FEED_FIELDS.events]: expect.stringContaining("Only workspace admins") },
    });

    const acks: Acks = [];
    await feedFormSubmission(world.deps)(
      submissionArgs(world, { callbackId: FEED_FORM_VIEW, values: good, privateMetadata }, acks),
    );
    expect(acks).toEqual([undefined]);
    expect(await world.deps.feeds.channel(TEAM, CHANNEL)).toMatchObject({
      filter: { events: ["paid", "expired"], minRub: "10000" },
      mentions: { users: ["U0ANNA"], payments: true, minRub: "50000", failures: false },
      by: ADMIN,
    });
    const welcome = world.slack.callsOf("chat.postMessage").find((call) => call.body.channel === CHANNEL);
    expect(String(welcome?.body.text)).toContain(
      "paid and expired unpaid invoices from 10,000 RUB, mentions <@U0ANNA> from 50,000 RUB",
    );
    expect(lastLine()).toMatchObject({ view: FEED_FORM_VIEW, outcome: "feed_subscribed", feed: "added" });
  });

  it("an out-of-date form is answered next to its first field", async () => {
    const acks: Acks = [];
    await createInvoiceSubmission(world.deps)(
      submissionArgs(
        world,
        { callbackId: CREATE_INVOICE_VIEW, values: {}, privateMetadata: "not json" },
        acks,
      ),
    );
    expect(acks[0]).toMatchObject({
      response_action: "errors",
      errors: { [CREATE_FIELDS.amount]: expect.stringContaining("out of date") },
    });
    expect(lastLine()).toMatchObject({ outcome: "bad_form" });
  });
});

describe("payouts", () => {
  const withSalt = () =>
    world.deps.stores.credentials.set(TEAM, {
      login: SANDBOX_LOGIN,
      secret: SANDBOX_SECRET,
      salt: SANDBOX_SALT,
      connectedBy: ADMIN,
    });

  it("/payout setup opens the policy form for an admin of a register with Secret 2, and tells others why not", async () => {
    cover(payoutCommand);
    await payoutCommand(world.deps)(
      commandArgs(world, { command: "/payout", text: "setup", replyId: "no-s2" }),
    );
    expect(JSON.stringify(await reply("no-s2"))).toContain("no Secret 2 stored");
    expect(lastLine()).toMatchObject({ command: "/payout", outcome: "no_secret2", action: "setup" });
    await withSalt();
    await payoutCommand(world.deps)(
      commandArgs(world, { command: "/payout", text: "setup", replyId: "member", user: MEMBER }),
    );
    expect(JSON.stringify(await reply("member"))).toContain("set up payouts");
    expect(lastLine()).toMatchObject({ outcome: "not_allowed" });
    await payoutCommand(world.deps)(
      commandArgs(world, { command: "/payout", text: "setup", replyId: "open" }),
    );
    const opened = world.slack.callsOf("views.open");
    expect(opened).toHaveLength(1);
    const view = JSON.stringify(opened[0]?.body.view);
    expect(view).toContain(PAYOUT_SETUP_VIEW);
    expect(view).toContain("conversations_select");
    expect(lastLine()).toMatchObject({ outcome: "modal_opened" });
    await payoutCommand(world.deps)(commandArgs(world, { command: "/payout", text: "", replyId: "help" }));
    expect(JSON.stringify(await reply("help"))).toContain("off, no policy set");
  });

  it("the policy form's Save checks the values and the saver, saves and announces in the channel", async () => {
    cover(payoutSetupSubmission);
    await withSalt();
    const text = (value: string) => ({ value: { type: "plain_text_input", value } });
    const values = {
      [PAYOUT_FIELDS.approvers]: { value: { type: "multi_users_select", selected_users: ["U0ANNA"] } },
      [PAYOUT_FIELDS.channel]: {
        value: { type: "conversations_select", selected_conversation: "C0PAYOUTS" },
      },
      [PAYOUT_FIELDS.twoApproversFrom]: text("50 000"),
      [PAYOUT_FIELDS.requesterDaily]: text("100000"),
      [PAYOUT_FIELDS.registerDaily]: text("300000"),
      [PAYOUT_FIELDS.expiryMinutes]: text("24h"),
      [PAYOUT_FIELDS.enabled]: {
        value: {
          type: "checkboxes",
          selected_options: [{ value: "on", text: { type: "plain_text" as const, text: "On" } }],
        },
      },
    };
    const privateMetadata = JSON.stringify({ t: TEAM, r: "main", v: 0, c: CHANNEL });
    const bad: Acks = [];
    await payoutSetupSubmission(world.deps)(
      submissionArgs(world, { callbackId: PAYOUT_SETUP_VIEW, values, privateMetadata }, bad),
    );
    expect(bad[0]).toMatchObject({ errors: { [PAYOUT_FIELDS.approvers]: expect.stringContaining("two") } });
    const good = {
      ...values,
      [PAYOUT_FIELDS.approvers]: {
        value: { type: "multi_users_select", selected_users: ["U0ANNA", "U0BORIS"] },
      },
    };
    // An operator's pick (ADMIN_USER_IDS) needs no users.info; the approvers still do, and Slack cannot say.
    world.slack.usersInfoError = "ratelimited";
    const unchecked: Acks = [];
    await payoutSetupSubmission({ ...world.deps, adminUserIds: [ADMIN] })(
      submissionArgs(world, { callbackId: PAYOUT_SETUP_VIEW, values: good, privateMetadata }, unchecked),
    );
    world.slack.usersInfoError = null;
    expect(unchecked[0]).toMatchObject({
      errors: {
        [PAYOUT_FIELDS.approvers]: expect.stringContaining("Slack could not say who these people are"),
      },
    });
    expect(await world.deps.payoutPolicies.get(TEAM)).toBeUndefined();
    const acks: Acks = [];
    await payoutSetupSubmission(world.deps)(
      submissionArgs(world, { callbackId: PAYOUT_SETUP_VIEW, values: good, privateMetadata }, acks),
    );
    expect(acks).toEqual([undefined]);
    expect(await world.deps.payoutPolicies.get(TEAM)).toMatchObject({
      approvers: ["U0ANNA", "U0BORIS"],
      twoApproversFrom: "50000",
      version: 1,
      changedBy: ADMIN,
    });
    const posted = world.slack.callsOf("chat.postMessage").find((call) => call.body.channel === "C0PAYOUTS");
    expect(JSON.stringify(posted?.body)).toContain("<@U0ANNA>, <@U0BORIS>");
    expect(lastLine()).toMatchObject({ view: PAYOUT_SETUP_VIEW, outcome: "policy_saved", version: 1 });
  });
});

describe("the payment methods watch form", () => {
  it("Save refuses a figure out of range on its field, then stores the watch and announces it", async () => {
    cover(methodWatchSubmission);
    const text = (value: string) => ({ value: { type: "plain_text_input", value } });
    const values = {
      [METHOD_WATCH_FIELDS.channel]: {
        value: { type: "conversations_select", selected_conversation: "C0ALERTS" },
      },
      [METHOD_WATCH_FIELDS.mention]: { value: { type: "multi_users_select", selected_users: [] } },
      [METHOD_WATCH_FIELDS.sharePercent]: text("40"),
      [METHOD_WATCH_FIELDS.minInvoices]: text("8"),
      [METHOD_WATCH_FIELDS.windowMinutes]: text("2"),
      [METHOD_WATCH_FIELDS.silence]: {
        value: {
          type: "radio_buttons",
          selected_option: { value: "off", text: { type: "plain_text" as const, text: "Off" } },
        },
      },
    };
    const privateMetadata = JSON.stringify({ t: TEAM, r: "main", c: CHANNEL });
    const submit = async (given: typeof values, user = ADMIN) => {
      const acks: Acks = [];
      await methodWatchSubmission(world.deps)(
        submissionArgs(world, { callbackId: METHOD_WATCH_VIEW, values: given, privateMetadata, user }, acks),
      );
      return acks;
    };
    expect(await submit(values)).toEqual([
      {
        response_action: "errors",
        errors: { [METHOD_WATCH_FIELDS.windowMinutes]: "A whole number from 5 to 1440." },
      },
    ]);
    const good = { ...values, [METHOD_WATCH_FIELDS.windowMinutes]: text("60") };
    expect(JSON.stringify(await submit(good, MEMBER))).toContain("Only workspace admins and owners");
    expect((await world.deps.methodWatches.read(TEAM)).settings).toBeUndefined();
    expect(await submit(good)).toEqual([undefined]);
    expect((await world.deps.methodWatches.read(TEAM)).settings).toMatchObject({
      channel: "C0ALERTS",
      silence: { mode: "off" },
      by: ADMIN,
    });
    const posted = world.slack.callsOf("chat.postMessage").find((call) => call.body.channel === "C0ALERTS");
    expect(JSON.stringify(posted?.body)).toContain("turned on the payment methods watch");
    expect(lastLine()).toMatchObject({
      view: METHOD_WATCH_VIEW,
      outcome: "method_watch_saved",
      result: "on",
    });
  });
});

describe("switching a payment method", () => {
  it("the alert's Switch off opens the confirmation for an admin, and tells a member who can", async () => {
    cover(methodAlertSwitchOff);
    const value = methodAlertButton.write({ r: "main", c: "BITCOIN" });
    const press = (user: string, replyId: string) =>
      methodAlertSwitchOff(world.deps)(
        buttonArgs(world, { actionId: METHOD_ALERT_ACTIONS.switchOff, value, user, replyId }),
      );
    await press(ADMIN, "switch");
    expect(world.slack.callsOf("views.open")).toHaveLength(1);
    const confirmation = JSON.stringify(world.slack.callsOf("views.update").at(-1)?.body.view);
    expect(confirmation).toContain("Payers can no longer choose Bitcoin");
    expect(lastLine()).toMatchObject({ outcome: "method_switch", step: "asked", result: "confirm" });
    await press(MEMBER, "switch-member");
    expect(JSON.stringify(await reply("switch-member"))).toContain("switch payment methods");
    expect(lastLine()).toMatchObject({ outcome: "not_allowed", manager: "not an admin" });
    expect(world.slack.callsOf("views.open")).toHaveLength(1);
  });

  it("the confirmation submitted: 'switching' at once, one edit, then what the service shows", async () => {
    cover(methodSwitchSubmission);
    const privateMetadata = JSON.stringify({ t: TEAM, r: "main", c: "BITCOIN", w: { on: false } });
    const acks: Acks = [];
    const form = { callbackId: METHOD_SWITCH_VIEW, values: {}, privateMetadata, viewId: "V0SWITCH" };
    await methodSwitchSubmission(world.deps)(submissionArgs(world, form, acks));
    await methodSwitchSubmission(world.deps)(submissionArgs(world, form, acks));
    expect(acks).toEqual([
      expect.objectContaining({ response_action: "update" }),
      expect.objectContaining({ response_action: "update" }),
    ]);
    expect(world.fake.methodEdits).toHaveLength(1);
    const answers = world.slack.callsOf("views.update").map((call) => JSON.stringify(call.body));
    expect(answers[0]).toContain("now shows *Bitcoin* `BITCOIN` *off*");
    expect(answers[1]).toContain("This confirmation was handled");
    expect(lastLine()).toMatchObject({
      view: METHOD_SWITCH_VIEW,
      outcome: "method_switch",
      result: "repeat",
    });
  });
});

describe("payout requests", () => {
  const WALLET = "2200700012345678";
  const setUp = async () => {
    await world.deps.stores.credentials.set(TEAM, {
      login: SANDBOX_LOGIN,
      secret: SANDBOX_SECRET,
      salt: SANDBOX_SALT,
      connectedBy: ADMIN,
    });
    world.slack.users.U0ANNA = {};
    world.slack.users.U0REQ = {};
    await world.deps.payoutPolicies.save(
      TEAM,
      {
        enabled: true,
        approvers: ["U0ANNA", "U0BORIS"],
        channel: "C0PAYOUTS",
        twoApproversFrom: "50000",
        requesterDaily: "100000",
        registerDaily: "300000",
        expiryMinutes: 60,
        methods: [],
        requesters: ["U0REQ"],
      },
      { by: "cli", now: new Date() },
    );
  };
  const text = (value: string) => ({ value: { type: "plain_text_input", value } });
  const requestValues = {
    payout_method: text("CARDRUBP2P"),
    payout_wallet: text(WALLET),
    payout_amount: text("1500"),
    payout_fee_from: {
      value: {
        type: "radio_buttons",
        selected_option: { value: "balance", text: { type: "plain_text" as const, text: "x" } },
      },
    },
    payout_reason: text("Supplier"),
  };
  const request = async (viewId: string) => {
    const acks: Acks = [];
    await payoutRequestSubmission(world.deps)(
      submissionArgs(
        world,
        {
          callbackId: PAYOUT_REQUEST_VIEW,
          values: requestValues,
          privateMetadata: JSON.stringify({ t: TEAM, c: CHANNEL, r: "main" }),
          user: "U0REQ",
          viewId,
        },
        acks,
      ),
    );
    return acks;
  };
  const idOfCard = () =>
    JSON.stringify(
      world.slack.callsOf("chat.postMessage").find((call) => call.body.channel === "C0PAYOUTS")?.body,
    ).match(/Payout `([^`]+)`/)?.[1] ?? "";

  it("the request form's Request asks the service for the quote and posts the card for the approvers", async () => {
    cover(payoutRequestSubmission);
    await setUp();
    expect(await request("V0REQ1")).toEqual([undefined]);
    expect(idOfCard()).not.toBe("");
    expect(lastLine()).toMatchObject({ view: PAYOUT_REQUEST_VIEW, outcome: "payout_requested" });
    expect(await request("V0REQ1")).toMatchObject([
      { errors: { payout_amount: expect.stringContaining("sent already") } },
    ]);
  });

  it("Approve and Reject open their modal for an approver, and refuse anyone else; Approve's modal wants the wallet's end", async () => {
    cover(payoutVoteButton);
    cover(payoutVoteSubmission);
    await setUp();
    await request("V0REQ2");
    const id = idOfCard();
    await payoutVoteButton(world.deps)(
      buttonArgs(world, {
        actionId: PAYOUT_ACTIONS.approve,
        value: id,
        user: MEMBER,
        replyId: "not-approver",
      }),
    );
    expect(JSON.stringify(await reply("not-approver"))).toContain("Only the policy's approvers");
    await payoutVoteButton(world.deps)(
      buttonArgs(world, { actionId: PAYOUT_ACTIONS.approve, value: id, user: "U0ANNA", replyId: "anna" }),
    );
    expect(JSON.stringify(world.slack.callsOf("views.open").at(-1)?.body.view)).toContain(
      PAYOUT_APPROVE_VIEW,
    );
    const vote = async (lastFour: string) => {
      const acks: Acks = [];
      await payoutVoteSubmission(world.deps)(
        submissionArgs(
          world,
          {
            callbackId: PAYOUT_APPROVE_VIEW,
            values: { payout_last_four: text(lastFour) },
            privateMetadata: JSON.stringify({ id }),
            user: "U0ANNA",
          },
          acks,
        ),
      );
      return acks;
    };
    expect(await vote("1111")).toMatchObject([
      { errors: { payout_last_four: expect.stringContaining("last four") } },
    ]);
    expect(await vote("5678")).toEqual([undefined]);
    expect(lastLine()).toMatchObject({
      view: PAYOUT_APPROVE_VIEW,
      outcome: "payout_voted",
      result: "approved",
    });
  });

  it("Cancel on the requester's copy ends the request; anyone else is told who can", async () => {
    cover(payoutCancelButton);
    await setUp();
    await request("V0REQ3");
    const id = idOfCard();
    await payoutCancelButton(world.deps)(
      buttonArgs(world, { actionId: PAYOUT_ACTIONS.cancel, value: id, user: MEMBER, replyId: "other" }),
    );
    expect(JSON.stringify(await reply("other"))).toContain("can cancel this payout");
    await payoutCancelButton(world.deps)(
      buttonArgs(world, { actionId: PAYOUT_ACTIONS.cancel, value: id, user: "U0REQ", replyId: "mine" }),
    );
    expect(JSON.stringify(await reply("mine"))).toContain("Cancelled");
    expect(world.fake.payoffs.all.get(id)?.state).toBe("canceled");
  });

  it("Refund on a paid invoice's card opens the refund form for a requester, tied to the invoice", async () => {
    cover(refundButton);
    await setUp();
    const value = invoiceButton.write({ t: TEAM, id: "715308962_PaidInFull", s: "payed" });
    await refundButton(world.deps)(
      buttonArgs(world, { actionId: REFUND_ACTION, value, user: "U0REQ", replyId: "refund" }),
    );
    const opened = viewOf(world.slack.callsOf("views.open").at(-1)?.body ?? {});
    expect(JSON.parse(opened.private_metadata ?? "{}")).toMatchObject({ i: "715308962_PaidInFull" });
    expect(lastLine()).toMatchObject({ outcome: "modal_opened" });
  });

  it("a recipient: its form adds it (its card posted), Confirm asks an approver for the last four, Remove is an admin's", async () => {
    for (const handler of [recipientAddSubmission, recipientConfirmButton, recipientConfirmSubmission])
      cover(handler);
    cover(recipientRemoveButton);
    await setUp();
    world.slack.users.U0BORIS = {};
    const acks: Acks = [];
    const values = {
      recipient_label: text("Acme"),
      recipient_method: text("CARDRUBP2P"),
      recipient_wallet: text(WALLET),
    };
    const origin = JSON.stringify({ t: TEAM, c: CHANNEL, r: "main" });
    await recipientAddSubmission(world.deps)(
      submissionArgs(
        world,
        { callbackId: RECIPIENT_ADD_VIEW, values, privateMetadata: origin, user: "U0REQ" },
        acks,
      ),
    );
    expect(acks).toEqual([undefined]);
    const card = world.slack.callsOf("chat.postMessage").find((call) => call.body.channel === "C0PAYOUTS");
    const value = JSON.stringify(card?.body).match(/([a-z2-7]{10}:main)/)?.[1] ?? "";
    const press = (user: string, replyId: string, actionId: string = RECIPIENT_ACTIONS.confirm) =>
      (actionId === RECIPIENT_ACTIONS.confirm ? recipientConfirmButton : recipientRemoveButton)(world.deps)(
        buttonArgs(world, { actionId, value, user, replyId }),
      );
    await press("U0REQ", "adder");
    expect(JSON.stringify(await reply("adder"))).toContain("You added this recipient");
    await press("U0ANNA", "anna");
    expect(JSON.stringify(world.slack.callsOf("views.open").at(-1)?.body.view)).toContain(
      RECIPIENT_CONFIRM_VIEW,
    );
    const confirm = async (user: string, lastFour: string) => {
      const given: Acks = [];
      const metadata = JSON.stringify({ id: value.slice(0, 10), r: "main" });
      await recipientConfirmSubmission(world.deps)(
        submissionArgs(
          world,
          {
            callbackId: RECIPIENT_CONFIRM_VIEW,
            values: { recipient_last_four: text(lastFour) },
            privateMetadata: metadata,
            user,
          },
          given,
        ),
      );
      return given;
    };
    expect(await confirm("U0ANNA", "1111")).toMatchObject([
      { errors: { recipient_last_four: expect.stringContaining("last four") } },
    ]);
    expect(await confirm("U0ANNA", "5678")).toEqual([undefined]);
    expect(await confirm("U0BORIS", "5678")).toEqual([undefined]);
    expect(lastLine()).toMatchObject({ outcome: "recipient_confirmed", result: "trusted" });
    await press(MEMBER, "member", RECIPIENT_ACTIONS.remove);
    expect(JSON.stringify(await reply("member"))).toContain("Only a workspace admin");
    await press(ADMIN, "admin", RECIPIENT_ACTIONS.remove);
    expect(JSON.stringify(await reply("admin"))).toContain("removed");
  });

  it("a batch: its form asks for quotes and posts one card, Drop and Cancel are its requester's, Approve asks for the rows and total", async () => {
    for (const handler of [batchFormSubmission, batchButton, batchVoteSubmission]) cover(handler);
    await setUp();
    world.slack.users.U0BORIS = {};
    const acks: Acks = [];
    const rows = `CARDRUBP2P\t${WALLET}\t1500\tbalance\tINV-1\nCARDRUBP2P\t${WALLET}\t1500\tbalance\tINV-1`;
    await batchFormSubmission(world.deps)(
      submissionArgs(
        world,
        {
          callbackId: BATCH_FORM_VIEW,
          values: { batch_rows: text(rows), batch_reason: text("Suppliers") },
          privateMetadata: JSON.stringify({ t: TEAM, c: CHANNEL, r: "main" }),
          user: "U0REQ",
        },
        acks,
      ),
    );
    expect(acks).toEqual([undefined]);
    expect(lastLine()).toMatchObject({ outcome: "batch_requested" });
    const card = world.slack.callsOf("chat.postMessage").find((call) => call.body.channel === "C0PAYOUTS");
    const id =
      JSON.stringify(card?.body).match(/kassa_batch_drop\\?",\\?"value\\?":\\?"([a-z2-7]{10})/)?.[1] ?? "";
    expect(JSON.stringify(card?.body)).toContain("the same wallet and amount as row 1");
    const press = (actionId: string, user: string, replyId: string) =>
      batchButton(world.deps)(buttonArgs(world, { actionId, value: id, user, replyId }));
    await press(BATCH_ACTIONS.approve, "U0ANNA", "early");
    expect(JSON.stringify(await reply("early"))).toContain("refused");
    await press(BATCH_ACTIONS.drop, "U0ANNA", "not-theirs");
    expect(JSON.stringify(await reply("not-theirs"))).toContain("<@U0REQ>");
    await press(BATCH_ACTIONS.drop, "U0REQ", "dropped");
    expect(JSON.stringify(await reply("dropped"))).toContain("1 refused row dropped");
    await press(BATCH_ACTIONS.approve, "U0ANNA", "anna");
    const opened = viewOf(world.slack.callsOf("views.open").at(-1)?.body ?? {});
    expect(opened.callback_id).toBe(BATCH_APPROVE_VIEW);
    const vote = async (typed: string) => {
      const given: Acks = [];
      await batchVoteSubmission(world.deps)(
        submissionArgs(
          world,
          {
            callbackId: BATCH_APPROVE_VIEW,
            values: { batch_typed: text(typed) },
            privateMetadata: opened.private_metadata ?? "",
            user: "U0ANNA",
          },
          given,
        ),
      );
      return given;
    };
    expect(await vote("1/150")).toMatchObject([
      { errors: { batch_typed: expect.stringContaining("1/1500") } },
    ]);
    expect(await vote("1/1500")).toEqual([undefined]);
    expect(lastLine()).toMatchObject({ outcome: "batch_decided", result: "approval_noted" });
    await press(BATCH_ACTIONS.cancel, "U0REQ", "cancelled");
    expect(JSON.stringify(await reply("cancelled"))).toContain("Batch cancelled");
  });
});

describe("events", () => {
  it("App Home is published for the person who opened it", async () => {
    cover(homeOpened);
    await homeOpened(world.deps)(eventArgs.homeOpened(world));
    const published = world.slack.callsOf("views.publish");
    expect(published).toHaveLength(1);
    expect(published[0]?.body.user_id).toBe(ADMIN);
    expect(lastLine()).toMatchObject({ event: "app_home_opened", outcome: "ok", user: ADMIN });
  });

  it("a pasted payment link is unfurled as a compact card", async () => {
    cover(linkShared);
    const url = `https://pay.crystalpay.io/?i=${PAID}`;
    await linkShared(world.deps)(eventArgs.linkShared(world, [url]));
    const unfurls = world.slack.callsOf("chat.unfurl");
    expect(unfurls).toHaveLength(1);
    expect(JSON.stringify(unfurls[0]?.body)).toContain(PAID);
    expect(lastLine()).toMatchObject({ event: "link_shared", outcome: "ok", unfurled: 1, links: 1 });
  });

  it("app_uninstalled forgets the workspace", async () => {
    cover(appUninstalled);
    const policy = {
      enabled: true,
      approvers: ["U0ANNA", "U0BORIS"],
      channel: "C0PAYOUTS",
      twoApproversFrom: "50000",
      requesterDaily: "100000",
      registerDaily: "300000",
      expiryMinutes: 1440,
      methods: [],
      requesters: [],
    };
    await world.deps.payoutPolicies.save(TEAM, policy, { by: ADMIN, now: new Date() });
    await appUninstalled(world.deps)(eventArgs.appUninstalled(world));
    expect(await world.deps.stores.credentials.get(TEAM)).toBeUndefined();
    expect(await world.deps.payoutPolicies.read(TEAM)).toEqual({ kind: "none" });
    expect(await world.deps.payoutPolicies.history(TEAM)).toEqual([]);
    expect(lastLine()).toMatchObject({ event: "app_uninstalled", outcome: "forgotten", team: TEAM });
  });

  it("app_uninstalled_team forgets that workspace of the org (its cash register), not the org's installation", async () => {
    cover(appUninstalledTeam);
    await world.deps.stores.installations.noteOrgWorkspace(TEAM, "E0GRID");
    await appUninstalledTeam(world.deps)(eventArgs.appUninstalledTeam(world));
    expect(await world.deps.stores.credentials.get(TEAM)).toBeUndefined();
    expect(await world.deps.stores.installations.orgOf(TEAM)).toBeUndefined();
    expect(lastLine()).toMatchObject({ event: "app_uninstalled_team", outcome: "forgotten", team: TEAM });
  });

  it("tokens_revoked forgets the workspace when the bot token went, and ignores user tokens", async () => {
    cover(tokensRevoked);
    await tokensRevoked(world.deps)(eventArgs.tokensRevoked(world, []));
    expect(await world.deps.stores.credentials.get(TEAM)).toBeDefined();
    await tokensRevoked(world.deps)(eventArgs.tokensRevoked(world, ["U0KASSABOT"]));
    expect(await world.deps.stores.credentials.get(TEAM)).toBeUndefined();
    expect(lastLine()).toMatchObject({ event: "tokens_revoked", outcome: "forgotten" });
  });
});

describe("the route table", () => {
  it("has a direct test above for every handler it routes to", () => {
    const untested = ROUTES.filter((route) => !covered.has(route.handler)).map(
      (route) =>
        ("command" in route && route.command) ||
        ("action" in route && String(route.action)) ||
        ("view" in route && route.view) ||
        ("event" in route && route.event),
    );
    expect(untested).toEqual([]);
  });
});
