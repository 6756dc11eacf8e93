import Keyv from "keyv";
import { describe, expect, it } from "vitest";
import { journalCommands } from "../../src/edge/recovery.js";
import { CommandJournal, journalCommand } from "../../src/store/journal.js";
import { InFlight } from "../../src/util/in-flight.js";
import { createLogger } from "../../src/util/logger.js";
import { bareCommandArgs } from "../support/command-args.js";

const BODY = {
  command: "/invoice",
  text: "715308958_rPwTzvsvCm",
  team_id: "T1",
  user_id: "U1",
  channel_id: "C1",
  response_url: "https://hooks.slack.invalid/commands/T1/1/abc",
  api_app_id: "A1",
};

/** A journal that only records what the middleware asks of it (writing nothing). */
class RecordingJournal extends CommandJournal {
  readonly calls: string[] = [];
  constructor() {
    super(new Keyv({ namespace: "journal" }), async () => true);
  }
  override async record(): Promise<string> {
    this.calls.push("record");
    return "entry-1";
  }
  override async remove(id: string): Promise<void> {
    this.calls.push(`remove ${id}`);
  }
}

async function run(afterMs: number, listenerMs: number): Promise<string[]> {
  const journal = new RecordingJournal();
  const middleware = journalCommands(journal, createLogger("silent"), new InFlight(), afterMs);
  const next = () => new Promise<void>((resolve) => setTimeout(resolve, listenerMs));
  await middleware(bareCommandArgs(BODY, { next }));
  return journal.calls;
}

/** A real journal on an in-memory Keyv; claims as the store's claimOnce gives them (once per key). */
function memoryJournal() {
  const claims = new Set<string>();
  const keyv = new Keyv({ namespace: "journal" });
  const journal = new CommandJournal(keyv, async (key) => {
    if (claims.has(key)) return false;
    claims.add(key);
    return true;
  });
  return { journal, keyv };
}

describe("the journal's heartbeat", () => {
  it("keeps a slow command's entry fresh while it is worked on, then removes it", async () => {
    const { journal, keyv } = memoryJournal();
    const graceMs = 90;
    const middleware = journalCommands(journal, createLogger("silent"), new InFlight(), 0, graceMs);
    const seen: number[] = [];
    const next = async () => {
      // Three graces and more into the work: its entry is not taken for a dead process's.
      for (let step = 0; step < 4; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen.push((await journal.claimStale(Date.now(), graceMs)).length);
      }
    };
    await middleware(bareCommandArgs(BODY, { next }));
    expect(seen).toEqual([0, 0, 0, 0]);
    expect(await keyv.get(CommandJournal.idOf(journalCommand(BODY) ?? BODY))).toBeUndefined();
  });

  it("gives a command whose process stopped renewing it to the next sweep, once", async () => {
    const { journal } = memoryJournal();
    const command = journalCommand(BODY);
    if (!command) throw new Error("not a journal command");
    const at = Date.now();
    await journal.record(command, at);
    await journal.beat(CommandJournal.idOf(command), command, at, at + 50);
    expect(await journal.claimStale(at + 100, 90)).toEqual([]);
    expect((await journal.claimStale(at + 140, 90)).map((entry) => entry.command.text)).toEqual([BODY.text]);
    expect(await journal.claimStale(at + 200, 90)).toEqual([]);
  });
});

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
