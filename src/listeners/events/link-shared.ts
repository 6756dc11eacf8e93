import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { buildInvoiceUnfurl, type LinkUnfurl } from "../../blocks/unfurl.js";
import { DEFAULT_LANG, type Lang } from "../../i18n/lang.js";
import { findInvoice, type RegisterRef } from "../../invoices/lookup.js";
import { type PaymentLink, paymentLinksToUnfurl } from "../../payments/payment-link.js";
import { slackErrorCode } from "../../slack/error.js";
import { newReference } from "../../util/logger.js";
import { replyForFailure } from "../contexts/error-reply.js";
import { type Handled, handled } from "../contexts/handled.js";
import type { LinkOutcome } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import type { EventArgs } from "../router.js";
import { registersInOrderHere } from "../workspace/register.js";
import { langFor } from "../workspace/settings.js";

/** Payment links of one message that are read and unfurled; later ones are left as plain links. */
export const MAX_UNFURLS_PER_MESSAGE = 5;

/** What Kassa needs of a link_shared event (the Events API payload, checked before use). */
const linkSharedSchema = z.object({
  channel: z.string().min(1),
  message_ts: z.string().min(1),
  user: z.string().min(1),
  links: z.array(z.object({ url: z.string() })),
  unfurl_id: z.string().min(1).optional(),
  source: z.string().optional(),
});
type LinkShared = z.infer<typeof linkSharedSchema>;

type LinkDeps = Pick<
  ListenerDeps,
  "inFlight" | "logger" | "rateLimiter" | "timeoutMs" | "now" | "payments" | "stores"
>;

/** One link read: its card, or why not (and the error itself when the operator needs its details). */
type LinkResult = { outcome: LinkOutcome; unfurl?: LinkUnfurl; error?: unknown };

/**
 * A payment link pasted in a channel (`link_shared`, for the domains in manifest.yml) becomes a
 * compact invoice card under the message, read with the workspace's own credentials. Nothing is ever
 * posted in the channel on failure (not connected, unknown invoice, service down): the link simply
 * stays a link, and one log line per event says why. Each read counts against the same per-user
 * and per-workspace rate limits as a command. Bolt acknowledges the event before this runs.
 */
export const linkShared =
  (deps: LinkDeps) =>
  async ({ event, body, client, context }: EventArgs<"link_shared">): Promise<void> => {
    // In OAuth mode Bolt authorised this event with the workspace's installation: `client` carries
    // that workspace's bot token (links:write), as in single-workspace mode it carries SLACK_BOT_TOKEN.
    const teamId = context.teamId ?? body.team_id ?? "";
    await handled(deps, { event: "link_shared", team: teamId, eventId: body.event_id }, async (note) => {
      const parsed = linkSharedSchema.safeParse(event);
      if (!parsed.success) {
        const problem = parsed.error.issues
          .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
          .join("; ");
        return { log: { outcome: "bad_event", problem }, level: "warn" };
      }
      note({ user: parsed.data.user });
      note({ channel: parsed.data.channel });
      return unfurlPaymentLinks(deps, client, teamId, parsed.data);
    });
  };

/** Reads the message's payment links and unfurls those it could; the outcome names each. */
async function unfurlPaymentLinks(
  deps: LinkDeps,
  client: webApi.WebClient,
  teamId: string,
  event: LinkShared,
): Promise<Handled> {
  const links = paymentLinksToUnfurl(
    event.links.map((link) => link.url),
    MAX_UNFURLS_PER_MESSAGE,
  );
  if (links.length === 0) return { log: { outcome: "no_payment_links", links: event.links.length } };
  const allowed = await allowedReads(deps, links.length, teamId, event.user);
  const now = deps.now();
  // The unfurl is written in the workspace's language; English when its settings cannot be read.
  const lang = await langFor(deps, teamId).catch(() => DEFAULT_LANG);
  // The channel's register is asked first, then the workspace's others (an id is one register's).
  const registers = await registersInOrderHere(deps.stores.registers, teamId, event.channel);
  const results = await Promise.all(
    links.map((link, index): LinkResult | Promise<LinkResult> =>
      allowed[index]
        ? readLink(deps, registers, link, now, lang)
        : { outcome: { id: link.invoiceId, outcome: "rate_limited" } },
    ),
  );
  // In the order shared, keyed by the exact URL Slack sent.
  const unfurls: Record<string, LinkUnfurl> = {};
  links.forEach((link, index) => {
    const unfurl = results[index]?.unfurl;
    if (unfurl) unfurls[link.url] = unfurl;
  });
  const { read, failed, unreachable } = readLog(results, event.links.length, Object.keys(unfurls).length);
  const level = failed ? "error" : unreachable ? "warn" : "info";
  if (read.unfurled === 0) return { log: read, level };
  try {
    await client.chat.unfurl({ ...unfurlTarget(event), unfurls });
    return { log: read, level };
  } catch (error) {
    return {
      log: { ...read, outcome: "unfurl_failed", unfurled: 0, slackError: slackErrorCode(error) },
      level: level === "info" ? "warn" : level,
    };
  }
}

/** Counted first, one per read, so a limit reached halfway reads nothing more. */
async function allowedReads(deps: LinkDeps, count: number, teamId: string, user: string): Promise<boolean[]> {
  const allowed: boolean[] = [];
  for (let index = 0; index < count; index += 1) {
    const limited = allowed.includes(false) || (await deps.rateLimiter.hit(teamId, user)).limited;
    allowed.push(!limited);
  }
  return allowed;
}

/** What the reads came to, for the log line: one outcome for all (else "partial"), each invoice's. */
function readLog(results: LinkResult[], shared: number, unfurled: number) {
  const invoices = results.map((result) => result.outcome);
  const kinds = new Set(invoices.map((entry) => entry.outcome));
  // Nobody sees a reference here; it ties the cause to the invoice for the operator.
  const failed = results.find((result) => result.error !== undefined);
  const unreachable = kinds.has("upstream_unreachable");
  const read = {
    outcome: kinds.size === 1 ? (invoices[0]?.outcome ?? "partial") : "partial",
    links: shared,
    invoices,
    unfurled,
    ...(failed ? { err: failed.error } : {}),
  } as const;
  return { read, failed, unreachable };
}

async function readLink(
  deps: LinkDeps,
  registers: readonly RegisterRef[],
  link: PaymentLink & { url: string },
  now: Date,
  lang: Lang,
): Promise<LinkResult> {
  try {
    const { invoice } = await findInvoice(deps, registers, link.invoiceId);
    return {
      outcome: { id: link.invoiceId, outcome: "ok" },
      unfurl: buildInvoiceUnfurl(invoice, { now, link: link.url, lang }),
    };
  } catch (error) {
    // Only the outcome is used (nobody is answered), so who may manage does not matter here.
    const failure = replyForFailure(error, {
      canManage: false,
      timeoutMs: deps.timeoutMs,
      reference: newReference(),
    });
    const outcome: LinkOutcome = { id: link.invoiceId, outcome: failure.outcome };
    if (failure.upstreamStatus !== undefined) outcome.upstreamStatus = failure.upstreamStatus;
    if (failure.reference) outcome.reference = failure.reference;
    // A payment service that is down is not Kassa's fault: a warning (below), not an error with a trace.
    if (!failure.reference || failure.outcome === "upstream_unreachable") return { outcome };
    return { outcome, error };
  }
}

/** A message not yet sent (a preview in the composer) is only known by its unfurl id. */
function unfurlTarget(
  event: LinkShared,
): { unfurl_id: string; source: "composer" | "conversations_history" } | { channel: string; ts: string } {
  if (event.unfurl_id && (event.source === "composer" || event.source === "conversations_history"))
    return { unfurl_id: event.unfurl_id, source: event.source };
  return { channel: event.channel, ts: event.message_ts };
}
