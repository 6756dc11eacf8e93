/**
 * The demo's batch of payouts (issue 52): the requester pastes three rows from a spreadsheet (one a
 * duplicate, stopped before the service), Kassa quotes the rest and posts one card; the requester
 * drops the refused row, Anna and Boris each approve by typing the rows and the total, Kassa sends
 * each row once, the service pays them, and the card counts them to the end with the result file in
 * its thread. Runs after showPayouts (the payout policy it sets).
 */
import type { Stack } from "../sandbox/stack.js";

type Show = (title: string, shown: string, reply: Record<string, unknown>) => void;

const [REQUESTER, ANNA, BORIS] = ["U0DEMOREQ", "U0DEMOANNA", "U0DEMOBORIS"];
const APPROVAL = "C0PAYOUTS";
const ROWS = [
  "Method\tWallet\tAmount\tFee\tReference",
  "CARDRUBP2P\t2200700011112222\t1200\tbalance\tPayroll: I. Petrova",
  "CARDRUBP2P\t2200700033334444\t1800,50\tamount\tPayroll: A. Smirnov",
  "CARDRUBP2P\t2200700011112222\t1200\tbalance\tPayroll: I. Petrova (again)",
].join("\n");

const viewOf = (body: Record<string, unknown> | undefined) =>
  (typeof body?.view === "string" ? JSON.parse(body.view) : body?.view) as Record<string, unknown>;

export async function showBatchPayout(stack: Stack, show: Show): Promise<void> {
  const before = new Set([...stack.slack.messages.keys()]);
  const opened = stack.slack.callsOf("views.open").length;
  await stack.command("batch", { command: "/payout", userId: REQUESTER, channelId: "C0FINANCE" });
  const [form] = (await stack.slack.waitForCalls("views.open", { count: opened + 1 })).slice(opened);
  const values = { batch_rows: { value: ROWS }, batch_reason: { value: "November payroll" } };
  await stack.submitView({ view: viewOf(form?.body), values, userId: REQUESTER });
  const cardOf = () =>
    [...stack.slack.messages.entries()].find(
      ([key, message]) =>
        !before.has(key) && message.channel === APPROVAL && message.text.includes("Batch payout"),
    )?.[1];
  await waitFor(() => cardOf() !== undefined);
  const card = cardOf();
  const now = () => stack.slack.messages.get(`${APPROVAL}:${card?.ts}`);
  const asReply = () => ({ response_type: "in_channel", text: now()?.text, blocks: now()?.blocks });
  show(
    "A batch pasted from a spreadsheet: the duplicate row stopped before the service, the rest quoted, one card",
    "/payout batch (three rows pasted)",
    asReply(),
  );
  const id = JSON.stringify(card?.blocks ?? []).match(/"value":"([a-z2-7]{10})"/)?.[1] ?? "";
  await stack.action("kassa_batch_drop", id, { userId: REQUESTER, channelId: APPROVAL });
  await waitFor(() => JSON.stringify(now()?.blocks ?? []).includes("kassa_batch_approve"));
  show(
    "The requester drops the refused row: the batch waits for two approvals",
    "(Drop refused rows)",
    asReply(),
  );
  const typed = JSON.stringify(now()?.blocks ?? []).match(/type `(\d+\/[\d.]+)`/)?.[1] ?? "";
  for (const approver of [ANNA, BORIS]) {
    const count = stack.slack.callsOf("views.open").length;
    await stack.action("kassa_batch_approve", id, { userId: approver, channelId: APPROVAL });
    const [call] = (await stack.slack.waitForCalls("views.open", { count: count + 1 })).slice(count);
    await stack.submitView({
      view: viewOf(call?.body),
      values: { batch_typed: { value: typed } },
      userId: approver,
    });
  }
  await waitFor(() => stack.fake.payoffs.submits.length >= 3 && (now()?.text ?? "") !== "");
  for (const submitted of stack.fake.payoffs.submits.slice(-2)) stack.fake.payoffs.finish(submitted, "payed");
  await waitFor(() => JSON.stringify(now()?.blocks ?? []).includes("2 paid"), 20_000);
  show(
    `Anna and Boris approve by typing ${typed}; Kassa sends each row once and the service pays them`,
    "(Approve ×2; the service's callbacks)",
    asReply(),
  );
  await waitFor(() => stack.slack.files.shared().some((file) => file.filename === `batch-${id}.csv`), 20_000);
  const file = stack.slack.files.shared().find((one) => one.filename === `batch-${id}.csv`);
  show("…and the result file in the card's thread", "(batch result)", {
    response_type: "in_channel",
    text: `${file?.title}: ${file?.initialComment}\n${file?.bytes?.toString("utf8").replace(/^\uFEFF/, "")}`,
  });
}

async function waitFor(test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > until) throw new Error("the batch did not get there in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
