import { describe, expect, it } from "vitest";
import { InFlight } from "../src/listeners/in-flight.js";
import { createLogger } from "../src/logger.js";
import { journalCommands } from "../src/recovery.js";
import type { CommandJournal } from "../src/store/journal.js";

const BODY = {
  command: "/invoice",
  text: "715308958_rPwTzvsvCm",
  team_id: "T1",
  user_id: "U1",
  channel_id: "C1",
  response_url: "https://hooks.slack.invalid/commands/T1/1/abc",
  api_app_id: "A1",
};

/** A journal that only records what the middleware asks of it. */
function fakeJournal() {
  const calls: string[] = [];
  const journal = {
    record: async () => {
      calls.push("record");
      return "entry-1";
    },
    remove: async (id: string) => void calls.push(`remove ${id}`),
  } as unknown as CommandJournal;
  return { journal, calls };
}

async function run(afterMs: number, listenerMs: number): Promise<string[]> {
  const { journal, calls } = fakeJournal();
  const middleware = journalCommands(journal, createLogger("silent"), new InFlight(), afterMs);
  const next = () => new Promise<void>((resolve) => setTimeout(resolve, listenerMs));
  await middleware({ body: BODY, next } as unknown as Parameters<typeof middleware>[0]);
  return calls;
}

describe("journalCommands", () => {
  it("writes nothing for a command answered within JOURNAL_AFTER_MS", async () => {
    expect(await run(200, 5)).toEqual([]);
  });

  it("journals a command still unanswered after JOURNAL_AFTER_MS, and removes it once answered", async () => {
    expect(await run(20, 150)).toEqual(["record", "remove entry-1"]);
  });

  it("with JOURNAL_AFTER_MS=0 journals every command at once", async () => {
    expect(await run(0, 0)).toEqual(["record", "remove entry-1"]);
  });
});
