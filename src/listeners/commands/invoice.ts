import type { webApi } from "@slack/bolt";
import { buildInvoiceMessage } from "../../blocks/invoice.js";
import type { SlackMessage } from "../../blocks/message.js";
import { invoiceHelpMessage, invoiceUsageMessage } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import type { CardDelivery } from "../../invoices/deps.js";
import { deliverInvoiceCard } from "../../invoices/live-card.js";
import { findInvoice } from "../../invoices/lookup.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { commandContext } from "../contexts/command-context.js";
import { withImageFallback } from "../contexts/image-fallback.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { cardReads } from "../replies/invoice-card.js";
import { invoiceListReply } from "../replies/invoice-list.js";
import { invoiceSummaryReply } from "../replies/invoice-summary.js";
import { recurringCommand } from "../replies/recurring.js";
import { unpaidReply } from "../replies/unpaid.js";
import type { CommandArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import {
  type ChosenRegister,
  keptElsewhereReply,
  registersInOrder,
  withRegisterFooter,
} from "../workspace/register.js";
import { helpFactsFor, visibilityFor } from "../workspace/settings.js";
import { runAdminCommand, runDigestCommand } from "./invoice-admin.js";
import { auditCommand } from "./invoice-audit.js";
import { openCreateModal } from "./invoice-create.js";
import { runPeriodDigestCommand } from "./invoice-digest.js";
import { runExportCommand } from "./invoice-export.js";
import { feedFormCommand, subscribeFeed } from "./invoice-feed.js";
import { reissueCommand } from "./invoice-reissue.js";
import { type InvoiceRequest, parseInvoiceText } from "./invoice-text.js";
import { useRegisterCommand } from "./invoice-use.js";

export const INVOICE_COMMAND = "/invoice";

type InvoiceCommandDeps = AnswerDeps &
  ManagerDeps &
  Pick<
    ListenerDeps,
    | "payments"
    | "now"
    | "replyVisibility"
    | "watches"
    | "defaultApiVersion"
    | "callbacks"
    | "feeds"
    | "serviceTimeZone"
    | "exports"
    | "history"
    | "cancels"
    | "digests"
    | "links"
    | "schedules"
  > &
  Pick<ListenerDeps, "payouts" | "payoutPolicies">;

/** Who asked and where: built once per command, handed to every sub-command. */
type Asker = {
  teamId: string;
  userId: string;
  enterpriseId?: string | undefined;
  channelId: string;
  triggerId: string;
  /** The register the command works on (named first, the channel's, or main). */
  register: ChosenRegister;
  /** The workspace's language, read once by the command's context. */
  lang: Lang;
};

/** Each sub-command's request, by its kind. */
type Requests = { [R in InvoiceRequest as R["kind"]]: R };
type SubcommandName = keyof Requests;

/** What one sub-command is handed. */
type SubcommandCall<K extends SubcommandName> = {
  deps: InvoiceCommandDeps;
  client: webApi.WebClient;
  asker: Asker;
  request: Requests[K];
  lang: Lang;
  note: Note;
  /** Shows a long read's progress; the answer then replaces it. */
  progress: (message: SlackMessage) => Promise<unknown>;
};
type Handler<K extends SubcommandName> = (call: SubcommandCall<K>) => Promise<Produced>;

/** Every sub-command of `/invoice` and what answers it; a kind missing here fails tsc. */
const SUBCOMMANDS: { [K in SubcommandName]: Handler<K> } = {
  help: async ({ deps, asker, lang }) => ({
    reply: invoiceHelpMessage(await helpFactsFor(deps, asker.teamId), lang),
    log: { outcome: "help" },
  }),
  invalid: async ({ request, lang }) => ({
    reply: invoiceUsageMessage(request.reason, request.input, lang),
    log: { outcome: "usage" },
  }),
  admin: ({ deps, client, asker, request, note }) =>
    runAdminCommand(deps, client, request.action, asker, note),
  subscribe: ({ deps, client, asker, request, note }) =>
    subscribeFeed(deps, client, asker, request.words, note),
  feed: ({ deps, client, asker, note }) => feedFormCommand(deps, client, asker, note),
  digest: ({ deps, client, asker, request, note }) => {
    if (request.cadence === "daily") {
      note({ action: "digest" });
      return runDigestCommand(deps, client, { ...asker, at: request.at });
    }
    note({ action: `digest ${request.cadence}` });
    return runPeriodDigestCommand(deps, client, { ...asker, at: request.at, cadence: request.cadence });
  },
  summary: ({ deps, client, asker, request, note, progress }) => {
    note({ action: `summary ${request.period}` });
    return invoiceSummaryReply(deps, client, asker, request.period, progress, asker.register);
  },
  export: ({ deps, client, asker, request, note }) => runExportCommand(deps, client, asker, request, note),
  list: async ({ deps, asker, request, note }) => {
    note({ filter: request.filter });
    return invoiceListReply(
      deps,
      asker.teamId,
      { filter: request.filter, page: 1, visibility: "private" },
      asker.register,
    );
  },
  unpaid: ({ deps, asker, request, note }) => {
    note({ action: `unpaid ${request.period}` });
    return unpaidReply(deps, asker.teamId, { ...request, page: 1 }, asker.register);
  },
  create: ({ deps, client, asker, request, note }) =>
    openCreateModal(deps, client, asker, request.prefill, note),
  use: ({ deps, client, asker, request, lang, note }) =>
    useRegisterCommand(deps, client, asker, request.name, lang, note),
  audit: ({ deps, client, asker, request, lang, note }) =>
    auditCommand(deps, client, asker, request, lang, note),
  recurring: ({ deps, client, asker, lang }) => recurringCommand(deps, client, asker, lang),
  lookup: invoiceCard,
  reissue: ({ deps, client, asker, request, lang, note }) =>
    reissueCommand(deps, client, asker, request, { lang, note }),
};

/** `/invoice <id or link>`: the invoice's card, live while it may still change. */
async function invoiceCard({
  deps,
  client,
  asker,
  request,
  lang,
  note,
}: SubcommandCall<"lookup">): Promise<Produced> {
  note({ invoice: request.invoiceId });
  const { invoice, register } = await findInvoice(deps, registersInOrder(asker.register), request.invoiceId);
  if (asker.register.several) note({ register: register.name });
  const visibility = await visibilityFor(deps, asker.teamId);
  const card = buildInvoiceMessage(invoice, {
    now: deps.now(),
    teamId: asker.teamId,
    visibility,
    lang,
    register: asker.register.several ? register.name : undefined,
    // Its method, refunds and, for a re-issued link, what replaced it (a method read within a short budget).
    ...(await cardReads(deps, register.key, invoice)),
  });
  const delivery: CardDelivery = {};
  const reply = await deliverInvoiceCard(
    deps,
    client,
    {
      ...asker,
      registerKey: register.key,
      ...(asker.register.several ? { registerName: register.name } : {}),
    },
    invoice,
    card,
    visibility,
    delivery,
    { lang },
  ).finally(() => note(delivery));
  return { reply, log: { outcome: "ok", upstreamStatus: 200, state: invoice.state } };
}

/**
 * Sub-commands whose reply is about one register's feed or digests (and `unsubscribe`): with several
 * registers, the reply ends saying which (as every reply that reads a register does).
 */
const FEED_REPLIES: ReadonlySet<SubcommandName> = new Set(["subscribe", "feed", "digest"]);

/** Sub-commands that read or change a register's money: refused where the register is not used. */
const READS_REGISTER: ReadonlySet<SubcommandName> = new Set([
  "list",
  "unpaid",
  "summary",
  "export",
  "lookup",
  "create",
  "reissue",
  "recurring",
  "subscribe",
  "feed",
  "digest",
]);

function runSubcommand<K extends SubcommandName>(kind: K, call: SubcommandCall<K>): Promise<Produced> {
  const { register } = call.asker;
  const kept = READS_REGISTER.has(kind) ? keptElsewhereReply(register, call.lang) : undefined;
  if (kept) return Promise.resolve({ reply: kept, log: { outcome: "register_kept_elsewhere" } });
  const produced = SUBCOMMANDS[kind](call);
  const request: InvoiceRequest = call.request;
  const aboutFeed = FEED_REPLIES.has(kind) || (request.kind === "admin" && request.action === "unsubscribe");
  if (!aboutFeed) return produced;
  return produced.then((done) =>
    done.reply ? { ...done, reply: withRegisterFooter(done.reply, register, call.lang) } : done,
  );
}

/** `/invoice`: acknowledged at once, then the sub-command its text asks for answers through response_url. */
export const invoiceCommand =
  (deps: InvoiceCommandDeps) =>
  async ({ command, ack, respond, client, context: request }: CommandArgs): Promise<void> => {
    await ack(); // Slack gives up after 3 s: before any I/O; the answer goes through response_url
    const context = commandContext(deps, client, INVOICE_COMMAND, command, request);
    // Once a long read showed its progress, whatever comes next (the report, a failure) replaces it.
    let progressShown = false;
    const progress = (message: SlackMessage) => {
      progressShown = true;
      return respond(message);
    };
    const reply = withImageFallback((message: SlackMessage) =>
      respond(progressShown ? { ...message, replace_original: true } : message),
    );
    await answer(deps, context, reply, async (note) => {
      const register = await context.register(note);
      const asker: Asker = {
        teamId: command.team_id,
        userId: command.user_id,
        enterpriseId: command.enterprise_id,
        channelId: command.channel_id,
        triggerId: command.trigger_id,
        register,
        lang: await context.lang(),
      };
      const request = parseInvoiceText(register.rest);
      const { lang } = asker;
      return runSubcommand(request.kind, { deps, client, asker, request, lang, note, progress });
    });
  };
