/**
 * `npm run demo`: the real app (real receiver, real SQLite store in a temporary folder) against the
 * sandbox payment service and a local Slack stand-in. Sends signed slash commands and prints what a
 * Slack user would see. `--json` prints the raw messages. No network, no Slack account needed.
 */
import { FAULT_IDS, SANDBOX_LOGIN } from "../sandbox/fake-payments.js";
import { bold, dim, renderMessage } from "../sandbox/render.js";
import { SANDBOX_TEAM } from "../sandbox/slack.js";
import { Stack } from "../sandbox/stack.js";

const json = process.argv.includes("--json");

type Step = { title: string; text: string; teamId?: string; version?: "v2" | "v3" };

const WRONG_TEAM = "T0WRONGKEY";
const UNCONNECTED_TEAM = "T0NOTCONNECTED";

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
  { title: "Same invoice through API v3", text: "715308959_ProcessingBtc", version: "v3" },
  { title: "Unknown invoice id", text: "000000000_DoesNotExist" },
  { title: "Not an invoice id", text: "<script>alert(1)</script>" },
  { title: "Wrong credentials", text: "715308958_rPwTzvsvCm", teamId: WRONG_TEAM },
  { title: "Workspace not connected", text: "715308958_rPwTzvsvCm", teamId: UNCONNECTED_TEAM },
  { title: "Payment service behind a failing proxy (HTML 502, retried twice)", text: FAULT_IDS.html502 },
  { title: "Payment service slower than Slack's 3 s (ack first, answer later)", text: FAULT_IDS.slow },
];

async function main(): Promise<number> {
  const stacks = {
    v2: await Stack.start({ apiVersion: "v2", fake: { slowMs: 3500 } }),
    v3: await Stack.start({ apiVersion: "v3" }),
  };
  let missing = 0;
  try {
    const setup = await stacks.v2.cli(
      ["credentials", "set", "--team", WRONG_TEAM, "--login", SANDBOX_LOGIN, "--secret", "-"],
      "not-the-secret",
    );
    if (setup.code !== 0) throw new Error(`could not connect the demo team: ${setup.stderr}`);
    if (!json) {
      console.log(bold("Kassa demo"));
      console.log(
        dim(
          `app ${stacks.v2.url}, sandbox payment service ${stacks.v2.fake.url}, workspace ${SANDBOX_TEAM.id}`,
        ),
      );
      console.log(dim(`store: ${stacks.v2.env.STORE_URL} (temporary)\n`));
    }
    const results: unknown[] = [];
    for (const step of steps) {
      const stack = stacks[step.version ?? "v2"];
      const options = step.teamId ? { teamId: step.teamId } : {};
      try {
        const { ack, reply } = await stack.ask(step.text, options);
        if (json) {
          results.push({
            title: step.title,
            command: `/invoice ${step.text}`,
            ackStatus: ack.status,
            reply: reply.body,
          });
        } else {
          const timing = `acknowledged in ${Math.round(ack.ms)} ms, answered after ${reply.at - ack.sentAt} ms`;
          console.log(bold(`── ${step.title}`));
          console.log(
            dim(`> /invoice ${step.text}${step.teamId ? `   (workspace ${step.teamId})` : ""}   ${timing}`),
          );
          console.log(renderMessage(reply.body));
          console.log("");
        }
      } catch (error) {
        missing += 1;
        console.error(`${step.title}: ${(error as Error).message}`);
      }
    }
    if (json) console.log(JSON.stringify(results, null, 2));
  } finally {
    await Promise.all([stacks.v2.stop(), stacks.v3.stop()]);
  }
  if (!json)
    console.log(
      missing === 0 ? `All ${steps.length} commands answered.` : `${missing} command(s) got no answer.`,
    );
  return missing === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`demo failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
