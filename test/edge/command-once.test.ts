import { describe, expect, it } from "vitest";
import { answerCommandsOnce, RECOVERED } from "../../src/edge/command-once.js";
import { createLogger } from "../../src/util/logger.js";
import { bareCommandArgs } from "../support/command-args.js";

const BODY = {
  command: "/invoice",
  text: "help",
  team_id: "T1",
  user_id: "U1",
  response_url: "https://hooks.slack.invalid/commands/T1/1/abc",
};

/** Runs the middleware once; what it did: acked, went on to the listener, asked the store. */
async function run(
  claimOnce: (key: string, ttlMs: number) => Promise<boolean>,
  context: Record<string, unknown> = {},
) {
  const did: string[] = [];
  const middleware = answerCommandsOnce(async (key, ttlMs) => {
    did.push("claim");
    return claimOnce(key, ttlMs);
  }, createLogger("silent"));
  await middleware(
    bareCommandArgs(BODY, {
      context: { isEnterpriseInstall: false, ...context },
      ack: async () => void did.push("ack"),
      next: async () => void did.push("next"),
    }),
  );
  return did;
}

describe("answerCommandsOnce", () => {
  it("acks before it asks the store, then answers the first and drops a copy", async () => {
    const claims = new Set<string>();
    const claimOnce = async (key: string) => !claims.has(key) && Boolean(claims.add(key));
    expect(await run(claimOnce)).toEqual(["ack", "claim", "next"]);
    expect(await run(claimOnce)).toEqual(["ack", "claim"]);
  });

  it("leaves Slack's retries and a journaled command's run alone: no ack, no claim", async () => {
    const never = async () => false;
    expect(await run(never, { retryNum: 1 })).toEqual(["next"]);
    expect(await run(never, { [RECOVERED]: true })).toEqual(["next"]);
  });

  it("answers a command when the store cannot say (twice beats never)", async () => {
    expect(
      await run(async () => {
        throw new Error("store down");
      }),
    ).toEqual(["ack", "claim", "next"]);
  });
});
