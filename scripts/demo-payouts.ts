/**
 * The demo's payout: an operator sets main's payout policy with the CLI (Anna and Boris approve in
 * #payouts), a requester asks in one line, the card is posted for the approvers, Anna presses
 * Approve and types the wallet's last four, Kassa sends it once, and the service's callback turns
 * the card Paid with one note in its thread.
 */
import { SANDBOX_TEAM } from "../sandbox/slack.js";
import type { Stack } from "../sandbox/stack.js";

type Show = (title: string, shown: string, reply: Record<string, unknown>) => void;

const [REQUESTER, ANNA, BORIS] = ["U0DEMOREQ", "U0DEMOANNA", "U0DEMOBORIS"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";

function cardIn(stack: Stack, channel: string) {
  return [...stack.slack.messages.values()].filter((m) => m.channel === channel && !m.threadTs).at(-1);
}

const asReply = (message: { text: string; blocks: unknown } | undefined) => ({
  response_type: "in_channel",
  text: message?.text,
  blocks: message?.blocks,
});

export async function showPayouts(stack: Stack, show: Show): Promise<void> {
  for (const user of [REQUESTER, ANNA, BORIS]) stack.slack.users[user] = {};
  const policy = await stack.cli(
    ["payouts", "policy", "--team", SANDBOX_TEAM.id, "--approvers", `${ANNA},${BORIS}`, "--channel", APPROVAL]
      .concat(["--two-from", "50000", "--person-day", "100000", "--register-day", "300000", "--expire", "4h"])
      .concat(["--requesters", REQUESTER]),
  );
  if (policy.code !== 0) throw new Error(`could not set the payout policy: ${policy.stderr}`);
  const asked = `1500 CARDRUBP2P ${WALLET} Supplier invoice 17`;
  const { reply } = await stack.ask(asked, { command: "/payout", userId: REQUESTER, channelId: "C0FINANCE" });
  show(
    "A payout requested in one line (the policy set by an operator with the CLI)",
    `/payout ${asked}`,
    reply.body,
  );
  await stack.slack.waitForMessages((all) => all.some((m) => m.channel === APPROVAL), 5000);
  const card = cardIn(stack, APPROVAL);
  show("…its card in #payouts, for the approvers", "(posted in #payouts)", asReply(card));
  const id = JSON.stringify(card?.blocks ?? []).match(/Payout `([^`]+)`/)?.[1] ?? "";
  const opened = stack.slack.callsOf("views.open").length;
  await stack.action("kassa_payout_approve", id, { userId: ANNA, channelId: APPROVAL });
  const [call] = (await stack.slack.waitForCalls("views.open", { count: opened + 1 })).slice(opened);
  const view = (typeof call?.body.view === "string" ? JSON.parse(call.body.view) : call?.body.view) as Record<
    string,
    unknown
  >;
  await stack.submitView({ view, values: { payout_last_four: { value: WALLET.slice(-4) } }, userId: ANNA });
  const shown = () => JSON.stringify(stack.slack.messages.get(`${APPROVAL}:${card?.ts}`)?.blocks ?? []);
  await waitFor(() => stack.fake.payoffs.submits.includes(id) && shown().includes("Sent"), 10_000);
  show(
    "Anna presses Approve and types the wallet's last four: Kassa checks the payout at the service and sends it once",
    `(Approve pressed by Anna; submits at the service: ${stack.fake.payoffs.submits.filter((one) => one === id).length})`,
    asReply(stack.slack.messages.get(`${APPROVAL}:${card?.ts}`)),
  );
  stack.fake.payoffs.finish(id, "payed");
  await waitFor(() => stack.slack.threadOf(APPROVAL, card?.ts ?? "").length > 0, 10_000);
  show(
    "The service pays it out; its callback turns the card Paid, with one note in the thread",
    "(payout callback from the service)",
    asReply(stack.slack.messages.get(`${APPROVAL}:${card?.ts}`)),
  );
  show("…the note", "(in the card's thread)", asReply(stack.slack.threadOf(APPROVAL, card?.ts ?? "")[0]));
}

async function waitFor(test: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > until) throw new Error("the payout did not get there in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
