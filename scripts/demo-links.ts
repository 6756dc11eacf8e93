/**
 * The demo's payment links (issue 51): an admin creates a link for a customer with "remind me 1 hour
 * before it expires"; an hour later (the demo moves its own clock) the creator gets one reminder in
 * their messages, with Copy link, Re-issue and Stop reminding; after the link expired unpaid, Re-issue
 * makes the same invoice again, its card in the old card's thread, and `/invoice unpaid` lists what
 * is still open by customer.
 */
import { Stack } from "../sandbox/stack.js";
import { LINK_ACTIONS } from "../src/blocks/ids.js";
import { CREATE_FIELDS } from "../src/blocks/invoice-create.js";
import { systemClock } from "../src/util/clock.js";

type Show = (title: string, shown: string, reply: Record<string, unknown>) => void;
type Body = Record<string, unknown>;
type Block = { elements?: Array<{ action_id?: string; value?: string }> };

const CHANNEL = "C0FINANCE";
const MINUTE = 60_000;
const parsed = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);

function buttonValue(body: Body, actionId: string): string {
  const blocks = (parsed(body.blocks) ?? []) as Block[];
  const value = blocks.flatMap((block) => block.elements ?? []).find((e) => e.action_id === actionId)?.value;
  if (!value) throw new Error(`no ${actionId} button`);
  return value;
}

export async function showLinks(admin: string, show: Show): Promise<void> {
  let shift = 0;
  // Its own app, on a clock the demo moves: an hour passes in a moment, nothing is slept through.
  const stack = await Stack.start({
    apiVersion: "v3",
    env: { LINKS_CHECK_MS: "3600000" },
    clock: { ...systemClock, now: () => Date.now() + shift },
  });
  try {
    stack.slack.users[admin] = { is_admin: true };
    const opened = stack.slack.callsOf("views.open").length;
    await stack.command('new 2500 RUB customer "Acme Ltd" remind 1h Order 42', {
      userId: admin,
      channelId: CHANNEL,
    });
    const [form] = (await stack.slack.waitForCalls("views.open", { count: opened + 1 })).slice(opened);
    await stack.submitView({
      view: parsed(form?.body.view) as object,
      userId: admin,
      viewId: "V0DEMOLINK",
      values: {
        [CREATE_FIELDS.amount]: { value: "2500" },
        [CREATE_FIELDS.currency]: { selected: "RUB" },
        [CREATE_FIELDS.lifetime]: { value: "120" },
        [CREATE_FIELDS.remind]: { selected: "60" },
        [CREATE_FIELDS.customer]: { value: "Acme Ltd" },
        [CREATE_FIELDS.description]: { value: "Order 42" },
      },
    });
    const first = stack.fake.created.at(-1);
    if (!first) throw new Error("the form made no invoice");
    shift += 61 * MINUTE;
    await stack.pass("links");
    const reminder = stack.slack
      .callsOf("chat.postMessage")
      .find((call) => call.body.channel === admin && JSON.stringify(call.body).includes(first));
    if (!reminder) throw new Error("no reminder came");
    show(
      "An hour before the link expires, its creator gets one reminder",
      '/invoice new 2500 RUB customer "Acme Ltd" remind 1h Order 42',
      { response_type: "ephemeral", text: reminder.body.text, blocks: parsed(reminder.body.blocks) },
    );
    shift += 61 * MINUTE;
    await stack.pass("links");
    const value = buttonValue(reminder.body, LINK_ACTIONS.reissue);
    const pressed = await stack.press(LINK_ACTIONS.reissue, value, { userId: admin, ephemeral: true });
    show(
      "The link expired unpaid: Re-issue makes it again",
      "(Re-issue pressed)",
      pressed.reply.body as Body,
    );
    const second = stack.fake.created.at(-1);
    if (!second || second === first) throw new Error("Re-issue made no new invoice");
    const { reply } = await stack.ask("unpaid", { userId: admin, channelId: CHANNEL });
    show("What is still unpaid, by customer", "/invoice unpaid", reply.body as Body);
  } finally {
    await stack.stop();
  }
}
