/**
 * `npm run demo`: the real app (real receiver, real SQLite store in a temporary folder) against the
 * sandbox payment service and a local Slack stand-in. Sends signed slash commands and prints what a
 * Slack user would see. `--json` prints the raw messages. No network, no Slack account needed.
 * `--tz <IANA zone>` shows Slack's date tokens as a reader in that zone sees them (default: this
 * machine's zone), as Slack shows each reader their own time. `--lang ru` first sets the workspace's
 * language to Russian with `/invoice language ru`, as an admin would.
 */
import {
  FAULT_IDS,
  openInvoice,
  SANDBOX_LOGIN,
  SANDBOX_SALT,
  SANDBOX_SECRET,
  sampleInvoices,
} from "../sandbox/fake-payments.js";
import { sampleHistory } from "../sandbox/payments-history.js";
import { freePort } from "../sandbox/ports.js";
import { bold, dim, machineTimeZone, type Reader, renderMessage } from "../sandbox/render.js";
import { twoRegisterService } from "../sandbox/second-register.js";
import { SANDBOX_TEAM } from "../sandbox/slack.js";
import { Stack } from "../sandbox/stack.js";
import { FEED_FIELDS } from "../src/blocks/feed-form.js";
import { CREATE_FIELDS } from "../src/blocks/invoice-create.js";
import { showBatchPayout } from "./demo-batch.js";
import { showLinks } from "./demo-links.js";
import { showMethods } from "./demo-methods.js";
import { showPayouts } from "./demo-payouts.js";
import { showPeriodWork } from "./demo-period.js";
import { shopTwoInvoices, showRegisters } from "./demo-registers.js";

const json = process.argv.includes("--json");

/** `--tz Europe/Berlin` or `--tz=Europe/Berlin`; the machine's zone when not given. */
function readerTimeZone(argv: string[]): string {
  const at = argv.findIndex((arg) => arg === "--tz" || arg.startsWith("--tz="));
  if (at === -1) return machineTimeZone();
  const zone = argv[at]?.startsWith("--tz=") ? argv[at]?.slice(5) : argv[at + 1];
  try {
    if (!zone) throw new Error("missing");
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    console.error(`demo: --tz needs an IANA time zone such as Europe/Berlin (got ${zone ?? "nothing"})`);
    process.exit(2);
  }
}

const reader: Reader = { timeZone: readerTimeZone(process.argv.slice(2)) };

/** `--lang ru` or `--lang=ru` (English when not given). */
function demoLanguage(argv: string[]): "en" | "ru" {
  const at = argv.findIndex((arg) => arg === "--lang" || arg.startsWith("--lang="));
  if (at === -1) return "en";
  const lang = argv[at]?.startsWith("--lang=") ? argv[at]?.slice(7) : argv[at + 1];
  if (lang === "en" || lang === "ru") return lang;
  console.error(`demo: --lang takes en or ru (got ${lang ?? "nothing"})`);
  process.exit(2);
}

const language = demoLanguage(process.argv.slice(2));

type Step = {
  title: string;
  text: string;
  command?: string;
  teamId?: string;
  /** Who types it (default: a finance team member who is not an admin). */
  userId?: string;
  version?: "v2" | "v3";
  /** Change the sandbox before the command, and back after it. */
  before?: (stack: Stack) => void;
  after?: (stack: Stack) => void;
  /** Press this button of the reply afterwards. */
  press?: string;
  /** Change the sandbox before the press (e.g. the invoice gets paid). */
  beforePress?: (stack: Stack) => void;
};

const WRONG_TEAM = "T0WRONGKEY";
const UNCONNECTED_TEAM = "T0NOTCONNECTED";
/** A workspace admin (users.info says so in the Slack stand-in). */
const DEMO_ADMIN = "U0ADMIN";
/** Someone in sales the feed form mentions. */
const DEMO_ANNA = "U0ANNA";

const steps: Step[] = [
  { title: "Help", text: "help" },
  { title: "Unpaid invoice", text: "715308958_rPwTzvsvCm" },
  { title: "Paid with Bitcoin, in progress (tiny amounts stay exact)", text: "715308959_ProcessingBtc" },
  { title: "Wrong amount paid", text: "715308960_WrongAmount" },
  { title: "Payment failed", text: "715308961_FailedPay" },
  {
    title: "Paid (description tries to @channel: escaped)",
    text: "https://pay.crystalpay.io/?i=715308962_PaidInFull",
  },
  { title: "Method unavailable", text: "715308963_Unavailable" },
  { title: "Unpaid and past its expiry", text: "715308964_ExpiredUnpaid" },
  { title: "A state Kassa does not know yet", text: "715308965_FutureState" },
  {
    title: "Paid by Bitcoin (the v2 callback example): invoice amount in RUB, the rest in BTC",
    text: "715308966_PaidBitcoin",
  },
  { title: "Same invoice through API v3", text: "715308959_ProcessingBtc", version: "v3" },
  {
    title: "A USD invoice through API v3 (`currency` only)",
    text: "715308967_UsdCurrencyOnly",
    version: "v3",
  },
  {
    title: "An invoice that gets paid while people look at it: Refresh",
    text: "715308961_FailedPay",
    press: "invoice_refresh",
    beforePress: (stack) => {
      const invoice = stack.fake.invoices.get("715308961_FailedPay");
      if (invoice) invoice.state = "payed";
    },
  },
  { title: "Unknown invoice id", text: "000000000_DoesNotExist" },
  { title: "Not an invoice id", text: "<script>alert(1)</script>" },
  { title: "Wrong credentials", text: "715308958_rPwTzvsvCm", teamId: WRONG_TEAM },
  { title: "Workspace not connected", text: "715308958_rPwTzvsvCm", teamId: UNCONNECTED_TEAM },
  {
    title: "Workspace not connected, asked by a workspace admin (Connect button)",
    text: "715308958_rPwTzvsvCm",
    teamId: UNCONNECTED_TEAM,
    userId: DEMO_ADMIN,
  },
  { title: "Payment service behind a failing proxy (HTML 502, retried twice)", text: FAULT_IDS.html502 },
  { title: "Payment service slower than Slack's 3 s (ack first, answer later)", text: FAULT_IDS.slow },
  { title: "Payment methods and what each costs", text: "", command: "/paymethods" },
  { title: "Payment methods matching a filter", text: "btc", command: "/paymethods" },
  { title: "A filter that matches nothing", text: "paypal", command: "/paymethods" },
  {
    title: "Payment methods through API v3 (nested shape, limits), then Refresh",
    text: "usdt",
    command: "/paymethods",
    version: "v3",
    press: "paymethods_refresh",
  },
  {
    title: "Balances when the exchange rates cannot be read: the total is left out (not cached)",
    text: "",
    command: "/balance",
    userId: DEMO_ADMIN,
    before: (stack) => {
      stack.fake.tickerFault = "html502";
    },
    after: (stack) => {
      stack.fake.tickerFault = null;
    },
  },
  {
    title: "Balances, asked by a workspace admin (only they see it)",
    text: "",
    command: "/balance",
    userId: DEMO_ADMIN,
  },
  { title: "Balances through API v3", text: "", command: "/balance", userId: DEMO_ADMIN, version: "v3" },
  {
    title: "Balances, asked by a member (admins only unless an admin lets everyone)",
    text: "",
    command: "/balance",
  },
];

/** The value of the button with this action_id in a message. */
function buttonValue(message: Record<string, unknown>, actionId: string): string {
  const blocks =
    (message.blocks as Array<{ elements?: Array<{ action_id?: string; value?: string }> }>) ?? [];
  const button = blocks
    .flatMap((block) => block.elements ?? [])
    .find((element) => element.action_id === actionId);
  if (!button?.value) throw new Error(`no ${actionId} button in the reply`);
  return button.value;
}

async function main(): Promise<number> {
  // The v2 app knows its own address (PUBLIC_URL), so the sandbox service can post its payment
  // notifications there; live cards are polled only every 10 minutes, so a change is the callback's.
  const port = await freePort();
  const stacks = {
    v2: await Stack.start({
      apiVersion: "v2",
      // The register's realistic history (two months, every state, several methods) beside the samples.
      fake: { slowMs: 3500, invoices: [...sampleInvoices(), ...sampleHistory()] },
      env: {
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}/`,
        WATCH_INTERVAL_MS: "600000",
        FEED_INTERVAL_MS: "1000",
        PAYOUT_RUN_MS: "500",
      },
    }),
    // The v3 workspace also gets a second cash register, shop2 (scripts/demo-registers.ts).
    v3: await Stack.start({
      apiVersion: "v3",
      fake: twoRegisterService(shopTwoInvoices()),
      env: { FEED_INTERVAL_MS: "1000" },
    }),
  };
  for (const stack of Object.values(stacks)) stack.slack.users[DEMO_ADMIN] = { is_admin: true };
  let missing = 0;
  try {
    const setup = await stacks.v2.cli(
      ["credentials", "set", "--team", WRONG_TEAM, "--login", SANDBOX_LOGIN, "--secret", "-"],
      "not-the-secret",
    );
    if (setup.code !== 0) throw new Error(`could not connect the demo team: ${setup.stderr}`);
    const withSalt = await stacks.v2.cli(
      [
        "credentials",
        "set",
        "--team",
        SANDBOX_TEAM.id,
        "--login",
        SANDBOX_LOGIN,
        "--secret",
        SANDBOX_SECRET,
        "--salt",
        "-",
      ],
      SANDBOX_SALT,
    );
    if (withSalt.code !== 0)
      throw new Error(`could not store the demo register's Secret 2: ${withSalt.stderr}`);
    if (language === "ru") {
      // As an admin would: every reply and card after this is in Russian.
      for (const stack of Object.values(stacks)) await stack.ask("language ru", { userId: DEMO_ADMIN });
    }
    if (!json) {
      console.log(bold("Kassa demo"));
      console.log(
        dim(
          `app ${stacks.v2.url}, sandbox payment service ${stacks.v2.fake.url}, workspace ${SANDBOX_TEAM.id}`,
        ),
      );
      console.log(dim(`store: ${stacks.v2.env.STORE_URL} (temporary)`));
      console.log(dim(`times as a reader in ${reader.timeZone} sees them (--tz <zone> to change)`));
      console.log(dim(`language: ${language === "ru" ? "Russian" : "English"} (--lang en|ru to change)\n`));
    }
    const results: unknown[] = [];
    const show = (title: string, shown: string, reply: Record<string, unknown>) => {
      if (json) {
        results.push({ title, command: shown, reply });
        return;
      }
      console.log(bold(`── ${title}`));
      console.log(dim(`> ${shown}`));
      console.log(renderMessage(reply, reader));
      console.log("");
    };
    for (const step of steps) {
      const stack = stacks[step.version ?? "v2"];
      const command = step.command ?? "/invoice";
      try {
        step.before?.(stack);
        const { ack, reply } = await stack
          .ask(step.text, {
            command,
            ...(step.teamId ? { teamId: step.teamId } : {}),
            ...(step.userId ? { userId: step.userId } : {}),
          })
          .finally(() => step.after?.(stack));
        const who = step.userId ? `, user ${step.userId}` : "";
        const where = step.teamId ? `   (workspace ${step.teamId}${who})` : "";
        const timing = `acknowledged in ${Math.round(ack.ms)} ms, answered after ${reply.at - ack.sentAt} ms`;
        show(step.title, `${command} ${step.text}${where}   ${timing}`, reply.body);
        if (step.press) {
          step.beforePress?.(stack);
          const pressed = await stack.press(step.press, buttonValue(reply.body, step.press));
          const how = pressed.reply.body.replace_original ? "replaced in place" : "answered";
          show(`${step.title}: ${step.press}`, `(button pressed: the message is ${how})`, pressed.reply.body);
        }
      } catch (error) {
        missing += 1;
        console.error(`${step.title}: ${(error as Error).message}`);
      }
    }
    // A message with payment links (and one other link of the domain) posted in #finance.
    const pasted = [
      "https://pay.crystalpay.io/?i=715308960_WrongAmount",
      "https://pay.crystalpay.io/?i=715308959_ProcessingBtc&m=BITCOIN",
      "https://pay.crystalpay.io/faq",
    ];
    try {
      const before = stacks.v2.slack.callsOf("chat.unfurl").length;
      await stacks.v2.shareLinks(pasted);
      const [call] = (await stacks.v2.slack.waitForCalls("chat.unfurl", { count: before + 1 })).slice(before);
      const unfurls = JSON.parse(String(call?.body.unfurls)) as Record<string, Record<string, unknown>>;
      for (const [url, unfurl] of Object.entries(unfurls)) {
        show("A payment link pasted in #finance unfurls", `${url}   (link_shared -> chat.unfurl)`, {
          ...unfurl,
          response_type: "unfurl",
        });
      }
    } catch (error) {
      missing += 1;
      console.error(`unfurl: ${(error as Error).message}`);
    }
    // `/invoice new` by an admin: the modal opens pre-filled, is submitted, and the card is posted.
    try {
      const stack = stacks.v2;
      // An admin makes #payments the workspace's payment feed before the invoice is made.
      const subscribed = await stack.command("subscribe", { userId: DEMO_ADMIN, channelId: "C0PAYMENTS" });
      const welcome = await stack.slack.waitForReply(subscribed.responseId);
      const confirmation = await stack.slack.waitForReply(subscribed.responseId, { count: 2 });
      show(
        "An admin makes #payments the payment feed: Kassa says so in the channel",
        "/invoice subscribe   (in #payments)",
        welcome.body,
      );
      show("…and tells the admin privately", "(only the admin sees this)", confirmation.body);
      const typed = "new 1500 USD Order 10232";
      const opened = stack.slack.callsOf("views.open").length;
      await stack.command(typed, { userId: DEMO_ADMIN, channelId: "C0FINANCE" });
      const [call] = (await stack.slack.waitForCalls("views.open", { count: opened + 1 })).slice(opened);
      const view = (typeof call?.body.view === "string" ? JSON.parse(call.body.view) : call?.body.view) as {
        blocks: Array<{
          block_id?: string;
          element?: { initial_value?: string; initial_option?: { value: string } };
        }>;
      };
      const prefilled = (id: string) => view.blocks.find((block) => block.block_id === id)?.element;
      const amount = prefilled(CREATE_FIELDS.amount)?.initial_value ?? "";
      const currency = prefilled(CREATE_FIELDS.currency)?.initial_option?.value ?? "RUB";
      const description = prefilled(CREATE_FIELDS.description)?.initial_value ?? "";
      if (!json)
        console.log(
          dim(
            `> /invoice ${typed}   (opens the form: ${amount} ${currency}, “${description}”, 60 minutes)\n`,
          ),
        );
      const posted = stack.slack.callsOf("chat.postMessage").length;
      await stack.submitView({
        view,
        values: {
          [CREATE_FIELDS.amount]: { value: amount },
          [CREATE_FIELDS.currency]: { selected: currency },
          [CREATE_FIELDS.lifetime]: { value: "60" },
          [CREATE_FIELDS.description]: { value: description },
        },
        userId: DEMO_ADMIN,
      });
      const [card] = (await stack.slack.waitForCalls("chat.postMessage", { count: posted + 1 })).slice(
        posted,
      );
      show("A new invoice created from the form, its live card posted in #finance", "(Create pressed)", {
        ...card?.body,
        response_type: "in_channel",
        blocks: typeof card?.body.blocks === "string" ? JSON.parse(card.body.blocks) : card?.body.blocks,
      });
      // The customer pays; the service posts its signed notification to the invoice's callback_url.
      const id = stack.fake.created.at(-1) ?? "";
      const updates = stack.slack.callsOf("chat.update").length;
      const paidAt = performance.now();
      stack.fake.pay(id);
      const [update] = (await stack.slack.waitForCalls("chat.update", { count: updates + 1 })).slice(updates);
      const took = Math.round(performance.now() - paidAt);
      const sent = stack.fake.callbacks.at(-1);
      show(
        "The customer pays: the payment service's notification arrives and the card changes at once",
        `(callback POST ${sent?.url.replace(/[^/]+$/, "<key>")} answered ${sent?.status}; card updated ${took} ms after the payment, polling set to 10 minutes)`,
        {
          ...update?.body,
          response_type: "in_channel",
          blocks:
            typeof update?.body.blocks === "string" ? JSON.parse(update.body.blocks) : update?.body.blocks,
        },
      );
      // The same notification makes the feed read the history at once: one message in #payments.
      await stack.slack.waitForMessages(
        (messages) => messages.some((m) => m.channel === "C0PAYMENTS" && m.text.includes(id)),
        5000,
      );
      const feedMessage = [...stack.slack.messages.values()].find(
        (m) => m.channel === "C0PAYMENTS" && m.text.includes(id),
      );
      show(
        "…and the payment appears in the #payments feed",
        `(${Math.round(performance.now() - paidAt)} ms after the payment)`,
        { response_type: "in_channel", text: feedMessage?.text, blocks: feedMessage?.blocks },
      );
      await routedFeed(stack, show);
      // What finance staff ask next: today's figures and the newest invoices.
      const summary = await stack.ask("summary", { userId: DEMO_ADMIN, channelId: "C0PAYMENTS" });
      show("Today's figures, counted from the invoice history", "/invoice summary", summary.reply.body);
      const list = await stack.ask("list paid", { userId: DEMO_ADMIN, channelId: "C0PAYMENTS" });
      show("The newest paid invoices, only for the asker", "/invoice list paid", list.reply.body);
      await showPeriodWork(stack, DEMO_ADMIN, show, json);
    } catch (error) {
      missing += 1;
      console.error(`/invoice new: ${(error as Error).message}`);
    }
    try {
      await showRegisters(stacks.v3, DEMO_ADMIN, show);
    } catch (error) {
      missing += 1;
      console.error(`two registers: ${(error as Error).message}`);
    }
    try {
      await showPayouts(stacks.v2, show);
      await showBatchPayout(stacks.v2, show);
    } catch (error) {
      missing += 1;
      console.error(`payouts: ${(error as Error).message}`);
    }
    try {
      await showMethods(stacks.v3, DEMO_ADMIN, show);
    } catch (error) {
      missing += 1;
      console.error(`payment methods: ${(error as Error).message}`);
    }
    try {
      await showLinks(DEMO_ADMIN, show);
    } catch (error) {
      missing += 1;
      console.error(`payment links: ${(error as Error).message}`);
    }
    if (json) console.log(JSON.stringify(results, null, 2));
  } finally {
    await Promise.all([stacks.v2.stop(), stacks.v3.stop()]);
  }
  if (!json)
    console.log(
      missing === 0
        ? `All ${steps.length} commands answered, and the pasted links unfurled.`
        : `${missing} command(s) or unfurl(s) got no answer.`,
    );
  return missing === 0 ? 0 : 1;
}

/**
 * Routing: the feed form makes #sales a feed of paid invoices from 10,000 RUB that mentions Anna on
 * payments from 50,000 RUB; two customers pay 64,000 and 4,500 RUB; `/invoice status` says it all.
 */
async function routedFeed(
  stack: Stack,
  show: (title: string, shown: string, reply: Record<string, unknown>) => void,
): Promise<void> {
  const opened = stack.slack.callsOf("views.open").length;
  await stack.command("feed", { userId: DEMO_ADMIN, channelId: "C0SALES" });
  const [call] = (await stack.slack.waitForCalls("views.open", { count: opened + 1 })).slice(opened);
  const form: Record<string, unknown> = typeof call?.body.view === "string" ? JSON.parse(call.body.view) : {};
  if (!json)
    console.log(
      dim(
        "> /invoice feed   (in #sales; the form: paid invoices, from 10000 RUB, mention @anna from 50000 RUB)\n",
      ),
    );
  await stack.submitView({
    view: form,
    values: {
      [FEED_FIELDS.events]: { ticked: ["paid"] },
      [FEED_FIELDS.minRub]: { value: "10000" },
      [FEED_FIELDS.tests]: { selected: "include" },
      [FEED_FIELDS.people]: { users: [DEMO_ANNA] },
      [FEED_FIELDS.when]: { ticked: ["payments"] },
      [FEED_FIELDS.mentionMin]: { value: "50000" },
    },
    userId: DEMO_ADMIN,
  });
  const inSales = () => [...stack.slack.messages.values()].filter((m) => m.channel === "C0SALES");
  await stack.slack.waitForMessages(() => inSales().length > 0, 5000);
  const welcome = inSales()[0];
  show("The feed form saved: #sales gets big payments, and Anna hears of the biggest", "(Save pressed)", {
    response_type: "in_channel",
    text: welcome?.text,
    blocks: welcome?.blocks,
  });
  const big = demoInvoice(stack, "64000", "Annual plan, ACME <!channel>");
  const small = demoInvoice(stack, "4500", "Monthly plan");
  stack.fake.pay(big);
  stack.fake.pay(small);
  await stack.slack.waitForMessages(() => inSales().some((m) => m.text.includes(big)), 10_000);
  const message = inSales().find((m) => m.text.includes(big));
  show(
    "A 64,000 RUB payment reaches #sales and mentions Anna (the description's <!channel> stays text)",
    `(a customer pays; the message text Slack notifies with: “${message?.text}”)`,
    { response_type: "in_channel", text: message?.text, blocks: message?.blocks },
  );
  await new Promise((resolve) => setTimeout(resolve, 2500));
  if (!json)
    console.log(
      dim(
        `  A 4,500 RUB payment made at the same time: ${inSales().some((m) => m.text.includes(small)) ? "posted in #sales (unexpected)" : "not posted in #sales (below its 10,000 RUB)"}.\n`,
      ),
    );
  const status = await stack.ask("status", { userId: DEMO_ADMIN, channelId: "C0SALES" });
  show(
    "/invoice status says what each feed posts and whom it mentions",
    "/invoice status",
    status.reply.body,
  );
}

let demoInvoices = 0;
/** An invoice a customer makes through the shop (not Slack), just now, in roubles. */
function demoInvoice(stack: Stack, amount: string, description: string): string {
  demoInvoices += 1;
  const id = `7159000${String(demoInvoices).padStart(2, "0")}_ShopOrder`;
  stack.fake.invoices.set(id, openInvoice(id, { amount, description }));
  return id;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`demo failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
