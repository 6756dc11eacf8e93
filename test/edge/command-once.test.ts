import { describe, expect, it } from "vitest";
import { answerCommandsOnce, firstDeliveryOf, RECOVERED } from "../../src/edge/command-once.js";
import { createLogger } from "../../src/util/logger.js";
import { bareCommandArgs } from "../support/command-args.js";

const BODY = {
  command: "/invoice",
  text: "help",
  team_id: "T1",
  user_id: "U1",
  response_url: "https://hooks.slack.invalid/commands/T1/1/abc",
};

/**
 * Runs the middleware once; what it did (acked, asked the store, went on to the listener) and what
 * the listener is told of the command: to answer it (true) or not.
 */
async function run(
  claimOnce: (key: string, ttlMs: number) => Promise<boolean>,
  context: Record<string, unknown> = {},
  listener: () => void = () => {},
) {
  const did: string[] = [];
  const middleware = answerCommandsOnce(async (key, ttlMs) => {
    did.push("claim");
    return claimOnce(key, ttlMs);
  }, createLogger("silent"));
  // The very object the middleware marks, which firstDeliveryOf reads back.
  const marked = Object.assign(context, { isEnterpriseInstall: false });
  await middleware(
    bareCommandArgs(BODY, {
      context: marked,
      ack: async () => void did.push("ack"),
      next: async () => {
        did.push("next");
        listener();
      },
    }),
  );
  return { did, answer: await firstDeliveryOf(marked) };
}

describe("answerCommandsOnce", () => {
  it("acks before it asks the store, and tells the listener to answer the first and not a copy", async () => {
    const claims = new Set<string>();
    const claimOnce = async (key: string) => !claims.has(key) && Boolean(claims.add(key));
    expect(await run(claimOnce)).toEqual({ did: ["ack", "claim", "next"], answer: true });
    expect(await run(claimOnce)).toEqual({ did: ["ack", "claim", "next"], answer: false });
  });

  it("goes on to the listener without waiting for the store's answer", async () => {
    let claimed: (first: boolean) => void = () => {};
    const context: Record<string, unknown> = {};
    const asked = new Promise<boolean>((resolve) => {
      claimed = resolve;
    });
    // The listener runs while the claim is still unanswered; it then learns the answer.
    const ran = run(
      () => asked,
      context,
      () => claimed(false),
    );
    expect(await ran).toEqual({ did: ["ack", "claim", "next"], answer: false });
  });

  it("leaves Slack's retries and a journaled command's run alone: no ack, no claim", async () => {
    const never = async () => false;
    expect(await run(never, { retryNum: 1 })).toEqual({ did: ["next"], answer: true });
    expect(await run(never, { [RECOVERED]: true })).toEqual({ did: ["next"], answer: true });
  });

  it("answers a command when the store cannot say (twice beats never)", async () => {
    expect(
      await run(async () => {
        throw new Error("store down");
      }),
    ).toEqual({ did: ["ack", "claim", "next"], answer: true });
  });
});
