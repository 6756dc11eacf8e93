import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, type AuditEntry } from "../../src/audit/index.js";
import { auditHeadMessage, auditLine, auditListMessage, auditVerifyMessage } from "../../src/blocks/audit.js";
import { AUDIT_TEXT } from "../../src/i18n/audit.js";
import { LANGS } from "../../src/i18n/lang.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords } from "../support/english-words.js";

const entry = (extra: Partial<AuditEntry> = {}): AuditEntry => ({
  time: "2026-11-26T09:28:00.000Z",
  team: "T0SANDBOX",
  actor: "U0ADMIN",
  action: "settings.language_changed",
  object: "language",
  outcome: "done",
  ...extra,
});

describe("the audit trail in words", () => {
  it.each(LANGS)("words every act in %s", (lang) => {
    const missing = AUDIT_ACTIONS.filter((action) => !AUDIT_TEXT[lang].acts[action]);
    expect(missing).toEqual([]);
  });

  it("names people by mention, others in words, and escapes what came from outside", () => {
    expect(auditLine(entry())).toMatch(
      /^<!date\^1795685280\^\{date_short_pretty\} \{time\}\|[^>]+> · <@U0ADMIN> changed the language · language$/,
    );
    expect(auditLine(entry({ actor: "cli", register: "shop2" }))).toContain(
      "The CLI changed the language · language · shop2",
    );
    expect(
      auditLine(entry({ actor: "workflow:Fx1", action: "invoice.created", object: "invoice <!channel>" })),
    ).toContain("A workflow created an invoice · invoice &lt;!channel&gt;");
    expect(
      auditLine(
        entry({
          actor: "U0MEMBER",
          action: "act.refused",
          object: "/invoice disconnect",
          outcome: "refused",
          reason: "not an admin",
        }),
        "ru",
      ),
    ).toContain("<@U0MEMBER> получил(а) отказ: /invoice disconnect (not an admin)");
  });

  it("fits Block Kit with a full page of long entries, and says when nothing was recorded", () => {
    const long = Array.from({ length: 15 }, (_, seq) => ({
      seq,
      hash: "h",
      prevHash: "p",
      entry: entry({ object: "x".repeat(300) }),
    }));
    expectWithinBlockKitLimits(auditListMessage(long, "7d"));
    expect(JSON.stringify(auditListMessage([], "today", "ru"))).toContain(
      "За этот период ничего не записано.",
    );
  });

  it("says the chain holds with its count, ends and head, or where it breaks", () => {
    const holds = auditVerifyMessage({
      ok: true,
      count: 3,
      first: { seq: 1, time: "2026-11-26T09:00:00.000Z" },
      last: { seq: 3, time: "2026-11-26T10:00:00.000Z" },
      head: { seq: 3, hash: "a".repeat(64) },
    });
    expect(JSON.stringify(holds)).toContain("The audit trail holds: 3 entries");
    expect(JSON.stringify(holds)).toContain("`aaaaaaaaaaaa`");
    expect(
      JSON.stringify(auditVerifyMessage({ ok: false, seq: 2, reason: "its hash does not match" })),
    ).toContain("does not hold from entry 2: its hash does not match");
  });
});

describe("the audit channel, the head, pages and exports in words", () => {
  const head = { seq: 42, hash: "ab".repeat(32), at: Date.parse("2026-11-26T09:28:00.000Z") };
  const ru = AUDIT_TEXT.ru;

  it("posts the head with its number, a Slack date and the full hash, within Block Kit's limits", () => {
    const message = auditHeadMessage(head, "en");
    expectWithinBlockKitLimits(message);
    const text = JSON.stringify(message);
    expect(text).toContain("Entry 42, recorded <!date^1795685280^");
    expect(text).toContain(`\`${head.hash}\``);
  });

  it("says everything new in Russian with no bare English word", () => {
    const older = auditListMessage([], "2026-11", "ru", { person: "U0ANNA", older: "{}" });
    expect(JSON.stringify(older)).toContain("Раньше");
    expect(JSON.stringify(older)).toContain(ru.noneHere);
    expect(JSON.stringify(auditListMessage([], "all", "en", { older: "{}" }))).toContain(
      "Older_ looks further",
    );
    expect(JSON.stringify(older)).toContain("действия <@U0ANNA>");
    const texts = [
      auditHeadMessage(head, "ru"),
      older,
      { text: ru.channelSet("C0AUDIT") },
      { text: ru.channelOff },
      { text: ru.channelNotHere },
      { text: ru.exportComment(3, "ноябрь 2026", true) },
      { text: ru.exportSent(3, "ноябрь 2026") },
      { text: ru.exportNeedsScope },
      { text: ru.acts["audit.channel_set"] },
      { text: ru.noneHere },
    ];
    for (const message of texts) expect(englishWords(message), JSON.stringify(message)).toEqual([]);
  });
});
