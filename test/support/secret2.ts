import { SANDBOX_LOGIN, SANDBOX_SALT, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import type { Stack } from "../../sandbox/stack.js";

/** The sandbox register connected with its Secret 2 by the CLI, as an operator does for payouts. */
export async function connectWithSecret2(stack: Stack): Promise<void> {
  const argv = ["credentials", "set", "--team", SANDBOX_TEAM.id, "--login", SANDBOX_LOGIN];
  const done = await stack.cli([...argv, "--secret", SANDBOX_SECRET, "--salt", "-"], SANDBOX_SALT);
  if (done.code !== 0) throw new Error(`could not connect the sandbox register: ${done.stderr}`);
}
