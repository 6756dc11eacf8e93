import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackStandIn, startSlackStandIn } from "../../sandbox/slack.js";
import { runExport } from "../../src/exports/run.js";
import type { KeptRead } from "../../src/history/kept.js";
import { UnreachableError } from "../../src/payments/errors.js";
import { periodBounds } from "../../src/reports/periods.js";

describe("an export that cannot read its period", () => {
  let slack: SlackStandIn;
  let client: WebClient;
  beforeAll(async () => {
    slack = await startSlackStandIn();
    client = new WebClient("xoxb-test", { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterAll(async () => {
    await slack.close();
  });

  const exportFailing = async (error: Error, lang: "en" | "ru") => {
    const bounds = periodBounds("7d", new Date(), "Europe/Moscow");
    if (!bounds) throw new Error("no period");
    const channel = `D0${lang.toUpperCase()}${error.name.toUpperCase()}`;
    const end = await runExport({
      request: { teamId: "T1", userId: "U1", bounds, format: "csv", lang, title: "Invoices" },
      jobId: "job",
      client,
      channel,
      read: async (): Promise<KeptRead> => {
        throw error;
      },
      signal: new AbortController().signal,
      checkpoint: async () => {},
      stillOurs: async () => {},
    });
    const said = [...slack.messages.values()].filter((message) => message.channel === channel);
    return { end, said: said.map((message) => message.text).join("\n") };
  };

  it("blames the payment service only when the payment service failed", async () => {
    const service = await exportFailing(new UnreachableError("timeout"), "en");
    expect(service.end).toMatchObject({ outcome: "export_failed", where: "service" });
    expect(service.said).toContain("the payment service stopped answering");
  });

  it("a failure on Kassa's side is said as Kassa's, in both languages", async () => {
    const en = await exportFailing(new TypeError("the store gave back nonsense"), "en");
    expect(en.end).toMatchObject({ outcome: "export_failed", where: "kassa" });
    expect(en.said).toContain("something went wrong on Kassa's side while the invoices were read");
    expect(en.said).not.toContain("payment service");
    const ru = await exportFailing(new RangeError("the store gave back nonsense"), "ru");
    expect(ru.end).toMatchObject({ outcome: "export_failed", where: "kassa" });
    expect(ru.said).toContain("на стороне Kassa что-то пошло не так, пока читались счета");
  });
});
