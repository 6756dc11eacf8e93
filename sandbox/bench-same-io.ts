/**
 * `npm run bench`'s same-I/O floor: a plain Bolt app that makes the outside calls Kassa makes for the
 * bench's commands, with the same messages, and nothing else; so what Kassa costs beyond its calls
 * (the command journal, rate limits, credentials, settings, the live card's room check and watch
 * write, its logging and deadlines) shows as the difference.
 *
 * - `/invoice <id>`: acks, reads the invoice from the payment service (invoice/info, one POST over a
 *   keep-alive connection; identical reads under way share one call, as Kassa's do), then posts the
 *   card Kassa's builder makes from that answer, with its live line, by chat.postMessage.
 * - `/paymethods [filter]`: acks, reads the method list (kept 60 s, as Kassa's
 *   PAYMETHODS_CACHE_TTL_MS does) and answers with Kassa's list through response_url.
 *
 * The messages come from Kassa's pure builders (src/blocks/), so the bytes sent are the same: the
 * floor measures the calls, not a smaller card.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { buildInvoiceMessage } from "../src/blocks/invoice.js";
import { buildPaymethodsMessage } from "../src/blocks/paymethods.js";
import { withWatchStatus } from "../src/blocks/watch.js";
import type { MethodFilter } from "../src/payments/method-filter.js";
import type { MethodCatalog } from "../src/payments/model.js";
import { invoiceFromV2, methodsFromV2 } from "../src/payments/normalize.js";
import { parseShape } from "../src/payments/request.js";
import { invoiceV2Schema, methodListV2Schema } from "../src/payments/schemas.js";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "./payments-samples.js";

type Running = { port: number; stop(): Promise<void> };

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** POSTs JSON and parses the JSON answer (the payment service's envelope). */
function postJson(url: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent,
        timeout: 10_000,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>);
          } catch (error) {
            reject(error);
          }
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
    request.end(payload);
  });
}

export async function startSameIo(env: NodeJS.ProcessEnv): Promise<Running> {
  const { App, LogLevel } = await import("@slack/bolt");
  const { SANDBOX_BOT } = await import("./slack.js");
  if ((env.PAYMENTS_API_VERSION ?? "v2") !== "v2") throw new Error("the same-I/O app speaks v2 only");
  const base = `${env.PAYMENTS_API_URL ?? ""}v2/`;
  const zone = "Europe/Moscow";
  const auth = { auth_login: SANDBOX_LOGIN, auth_secret: SANDBOX_SECRET };
  const app = new App({
    token: env.SLACK_BOT_TOKEN,
    botId: SANDBOX_BOT.botId,
    botUserId: SANDBOX_BOT.userId,
    signingSecret: env.SLACK_SIGNING_SECRET ?? "",
    clientOptions: env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {},
    logLevel: LogLevel.ERROR,
    convoStore: false,
    processBeforeResponse: false,
  });

  const reading = new Map<string, Promise<Record<string, unknown>>>();
  const readInvoice = (id: string) => {
    let read = reading.get(id);
    if (!read) {
      read = postJson(`${base}invoice/info/`, { ...auth, id }).finally(() => reading.delete(id));
      reading.set(id, read);
    }
    return read;
  };
  let methods: { at: number; catalog: Promise<MethodCatalog> } | undefined;
  const readMethods = () => {
    if (!methods || Date.now() - methods.at > 60_000)
      methods = {
        at: Date.now(),
        catalog: postJson(`${base}method/list/`, auth).then((body) =>
          methodsFromV2(parseShape(methodListV2Schema, body)),
        ),
      };
    return methods.catalog;
  };

  app.command("/invoice", async ({ ack, command, client }) => {
    await ack();
    const id = command.text.trim();
    const invoice = invoiceFromV2(parseShape(invoiceV2Schema, await readInvoice(id)), zone);
    const catalog = await readMethods();
    const card = withWatchStatus(
      buildInvoiceMessage(invoice, {
        now: new Date(),
        teamId: command.team_id,
        method: catalog.methods.find((method) => method.code === invoice.method),
      }),
      { kind: "watching", lastCheckedAt: new Date() },
      { t: command.team_id, id: invoice.id },
    );
    await client.chat.postMessage({ channel: command.channel_id, text: card.text, blocks: card.blocks });
  });
  app.command("/paymethods", async ({ ack, command, respond }) => {
    await ack();
    const text = command.text.trim().toLowerCase();
    const filter: MethodFilter =
      text === "" ? { kind: "all" } : text === "enabled" ? { kind: "enabled" } : { kind: "text", text };
    const catalog = await readMethods();
    const list = buildPaymethodsMessage(catalog.methods, { filter, page: 1 }, { fetchedAt: new Date() });
    if (!list) throw new Error(`no method matches ${text}`);
    await respond({ response_type: "in_channel", text: list.text, blocks: list.blocks });
  });

  const server = (await app.start(Number(env.PORT ?? 0))) as { address(): AddressInfo | string | null };
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the same-I/O app has no port");
  return {
    port: address.port,
    async stop() {
      agent.destroy();
      await app.stop();
    },
  };
}
