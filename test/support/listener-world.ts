import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RespondArguments, RespondFn, SayFn, ViewStateValue } from "@slack/bolt";
import { webApi } from "@slack/bolt";
import {
  type FakePayments,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  startFakePayments,
} from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM, type SlackStandIn, startSlackStandIn } from "../../sandbox/slack.js";
import { openAuditTrail } from "../../src/audit/index.js";
import { DigestStore } from "../../src/digests/store.js";
import { ExportJobs } from "../../src/exports/jobs.js";
import { owedExportsFor } from "../../src/exports/owed.js";
import { openFeedLedger } from "../../src/feed/ledger.js";
import { FeedStore } from "../../src/feed/store.js";
import { KeptHistory } from "../../src/history/kept.js";
import { scheduleBookFor } from "../../src/link-schedules/index.js";
import { linkBookFor } from "../../src/links/index.js";
import type { ListenerDeps } from "../../src/listeners/deps.js";
import type { ActionArgs, CommandArgs, EventArgs, ViewArgs } from "../../src/listeners/router.js";
import { methodWatchesFor } from "../../src/method-watch/index.js";
import { balanceAlertsFor } from "../../src/money-alerts/index.js";
import { PaymentsClient } from "../../src/payments/client.js";
import { PaymethodsPages } from "../../src/paymethods/pages.js";
import { methodSwitchesFor } from "../../src/paymethods/switch.js";
import { openPayouts } from "../../src/payouts/runner.js";
import { WorkspacePayments } from "../../src/registers/workspace-payments.js";
import { Cache } from "../../src/store/cache.js";
import { callbackKeysFor } from "../../src/store/callback-keys.js";
import { CancelMarks } from "../../src/store/cancels.js";
import { CardOwnersStore } from "../../src/store/card-owners.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { CredentialsStore } from "../../src/store/credentials.js";
import { SecretBox } from "../../src/store/crypto.js";
import { KeyvInstallationStore } from "../../src/store/installations.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { leasesFor } from "../../src/store/leases.js";
import { RateLimiter } from "../../src/store/rate-limit.js";
import { registerDirectoryFor } from "../../src/store/registers.js";
import { settingsStoreFor } from "../../src/store/settings.js";
import { systemClock } from "../../src/util/clock.js";
import { InFlight } from "../../src/util/in-flight.js";
import { boltLogger, createLogger, type Logger } from "../../src/util/logger.js";
import { BoardWatchQueue } from "../../src/watch/board-queue.js";
import { LiveCardRegistry } from "../../src/watch/registry.js";

/**
 * Everything a listener handler uses, real: an SQLite store in a temporary folder, the sandbox
 * payment service, the Slack stand-in behind a real WebClient. Handlers are called directly with
 * Bolt's own argument types (no server, no signatures), so a test sees exactly one handler at work.
 */
export type ListenerWorld = {
  deps: ListenerDeps;
  slack: SlackStandIn;
  fake: FakePayments;
  client: webApi.WebClient;
  store: KeyvStore;
  /** The log lines written so far, parsed. */
  lines: Array<Record<string, unknown>>;
  logger: Logger;
  close(): Promise<void>;
};

export const TEAM = SANDBOX_TEAM.id;
export const ADMIN = "U0ADMIN";
export const MEMBER = "U0MEMBER";
export const CHANNEL = "C0FINANCE";

export async function listenerWorld(options: { userPerMinute?: number } = {}): Promise<ListenerWorld> {
  const dir = mkdtempSync(join(tmpdir(), "kassa-handlers-"));
  const store = await openStore(`sqlite://${join(dir, "kassa.sqlite")}`);
  const fake = await startFakePayments();
  const slack = await startSlackStandIn();
  slack.users[ADMIN] = { is_admin: true };
  slack.users[MEMBER] = {};
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
  const box = new SecretBox(Buffer.alloc(32, 7));
  const credentials = new CredentialsStore(store.namespace("credentials"), box);
  await credentials.set(TEAM, { login: SANDBOX_LOGIN, secret: SANDBOX_SECRET, connectedBy: ADMIN });
  const client = new PaymentsClient({
    baseUrl: fake.url,
    defaultVersion: "v2",
    timeoutMs: 2000,
    timeZone: "Europe/Moscow",
    retries: 0,
  });
  const queue = new BoardWatchQueue(await openClaimBoard(store));
  const payments = new WorkspacePayments(credentials, client, new Cache(store.namespace("cache")), {
    defaultVersion: "v2",
    methodsTtlMs: 60_000,
    balanceTtlMs: 60_000,
  });
  const leases = await leasesFor(store);
  const history = new KeptHistory({
    keyv: store.namespace("history"),
    leases,
    page: (team, page, items) => payments.history(team, page, items, "background"),
    register: (team) => payments.register(team),
    zone: "Europe/Moscow",
    logger,
  });
  const cancels = new CancelMarks(store.namespace("cancels"));
  const audit = await openAuditTrail(store, { retentionDays: 1825 });
  const payouts = await openPayouts(store, {
    payments: client,
    paymentsTimeoutMs: 2000,
    credentials,
    slack: async () => undefined,
    audit,
    logger,
    storeTimeoutMs: 3000,
    intervalMs: 1000,
  });
  const deps: ListenerDeps = {
    audit,
    payments,
    paymethodsPages: new PaymethodsPages(),
    stores: {
      credentials,
      settings: settingsStoreFor(store),
      installations: new KeyvInstallationStore(
        store.namespace("installations"),
        box,
        store.namespace("orgworkspaces"),
      ),
      callbackKeys: callbackKeysFor(store, 3000),
      cardOwners: new CardOwnersStore(store.namespace("cardowners")),
      registers: registerDirectoryFor(store, 3000),
    },
    logger,
    timeoutMs: 2000,
    now: () => new Date(),
    replyVisibility: "channel",
    adminUserIds: [],
    defaultApiVersion: "v2",
    rateLimiter: new RateLimiter(undefined, {
      userPerMinute: options.userPerMinute ?? 100,
      teamPerMinute: 1000,
    }),
    inFlight: new InFlight(),
    watches: new LiveCardRegistry(queue, {
      intervalMs: 1000,
      maxHours: 24,
      maxPerWorkspace: 10,
      maxReadsPerSecond: 5,
      leaseMs: 60_000,
      storeTimeoutMs: 3000,
    }),
    serviceTimeZone: "Europe/Moscow",
    feeds: new FeedStore(
      store.namespace("feedsubs"),
      await openFeedLedger(store),
      store.namespace("feedcards"),
      () => openClaimBoard(store),
    ),
    claimOnce: (key, ttlMs) => store.claimOnce(key, ttlMs),
    callbacks: undefined,
    payoutPolicies: payouts.policies,
    payouts: payouts.deps,
    balanceAlerts: balanceAlertsFor(store, 3000),
    links: linkBookFor(store, { timeoutMs: 3000, now: () => Date.now() }),
    schedules: scheduleBookFor(store, { timeoutMs: 3000, now: () => Date.now() }),
    methodWatches: methodWatchesFor(store, 3000),
    methodCheckMs: 300_000,
    methodSwitches: methodSwitchesFor(store, 3000, { payments, audit, logger, clock: systemClock }),
    exports: new ExportJobs({
      history,
      leases,
      cancels,
      owed: await owedExportsFor(store),
      // Told with the handlers' client (set below): nothing lapses within one test.
      slack: async () => undefined,
      logger,
    }),
    history,
    cancels,
    digests: new DigestStore(store.namespace("digests"), store.namespace("digeststate"), () =>
      openClaimBoard(store),
    ),
  };
  const web = new webApi.WebClient("xoxb-handler-tests", {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
  });
  return {
    deps,
    slack,
    fake,
    client: web,
    store,
    lines,
    logger,
    async close() {
      client.close();
      await queue.close();
      await Promise.all([fake.close(), slack.close()]);
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What a handler acknowledged with, in order (undefined: a bare ack). */
export type Acks = unknown[];

/** As Bolt's respond(): a JSON POST to the response_url, failing on an HTTP error. */
function respondVia(url: string): RespondFn {
  return async (message: string | RespondArguments) => {
    const body = typeof message === "string" ? { text: message } : message;
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`response_url answered HTTP ${response.status}`);
    return response;
  };
}

function sayWith(client: webApi.WebClient, channel: string): SayFn {
  return async (message) =>
    client.chat.postMessage(
      typeof message === "string" ? { channel, text: message } : { channel, ...message },
    );
}

function common(world: ListenerWorld, userId: string) {
  return {
    client: world.client,
    logger: boltLogger(world.logger),
    next: async () => undefined,
    context: { isEnterpriseInstall: false, teamId: TEAM, userId, botToken: "xoxb-handler-tests" },
  };
}

/** A slash command as Slack sends it; its replies go to the stand-in's response_url `replyId`. */
export function commandArgs(
  world: ListenerWorld,
  command: { command: string; text: string; user?: string; channel?: string; replyId: string },
  acks: Acks = [],
): CommandArgs {
  const user = command.user ?? ADMIN;
  const channel = command.channel ?? CHANNEL;
  const payload = {
    token: "verification-token",
    command: command.command,
    text: command.text,
    response_url: world.slack.responseUrl(command.replyId),
    trigger_id: `trigger-${command.replyId}`,
    user_id: user,
    user_name: user.toLowerCase(),
    team_id: TEAM,
    team_domain: SANDBOX_TEAM.domain,
    channel_id: channel,
    channel_name: "finance",
    api_app_id: "A0KASSA",
  };
  return {
    ...common(world, user),
    payload,
    command: payload,
    body: payload,
    ack: async (response) => void acks.push(response),
    respond: respondVia(payload.response_url),
    say: sayWith(world.client, channel),
  };
}

/** A button press on a message Kassa posted (ephemeral when `ephemeral`); replies go to `replyId`. */
export function buttonArgs(
  world: ListenerWorld,
  press: {
    actionId: string;
    value: string;
    user?: string;
    ephemeral?: boolean;
    replyId: string;
    /** The channel message pressed on (a live card Kassa posted), as Slack sends it back. */
    card?: { ts: string; text: string; blocks: unknown[] };
  },
  acks: Acks = [],
): ActionArgs {
  const user = press.user ?? ADMIN;
  const action = {
    type: "button" as const,
    action_id: press.actionId,
    block_id: "actions",
    action_ts: "1764000000.000100",
    value: press.value,
    text: { type: "plain_text" as const, text: "Button" },
  };
  const body = {
    type: "block_actions" as const,
    actions: [action],
    team: { id: TEAM, domain: SANDBOX_TEAM.domain },
    user: { id: user, username: user.toLowerCase(), team_id: TEAM },
    channel: { id: CHANNEL, name: "finance" },
    token: "verification-token",
    response_url: world.slack.responseUrl(press.replyId),
    trigger_id: `trigger-${press.replyId}`,
    api_app_id: "A0KASSA",
    container: {
      type: "message",
      is_ephemeral: press.ephemeral ?? false,
      channel_id: CHANNEL,
      ...(press.card ? { message_ts: press.card.ts } : {}),
    },
    ...(press.card ? { message: { type: "message" as const, ...press.card } } : {}),
  };
  return {
    ...common(world, user),
    payload: action,
    action,
    body,
    ack: async () => void acks.push(undefined),
    respond: respondVia(body.response_url),
    say: sayWith(world.client, CHANNEL),
  };
}

/** A modal submission: `values` as view.state.values, what the handler acked with pushed to `acks`. */
export function submissionArgs(
  world: ListenerWorld,
  form: {
    callbackId: string;
    values: Record<string, Record<string, ViewStateValue>>;
    privateMetadata: string;
    user?: string;
    viewId?: string;
  },
  acks: Acks,
): ViewArgs {
  const user = form.user ?? ADMIN;
  const view = {
    id: form.viewId ?? "V0FORM",
    callback_id: form.callbackId,
    team_id: TEAM,
    app_id: "A0KASSA",
    bot_id: "B0KASSABOT",
    title: { type: "plain_text" as const, text: "Form" },
    type: "modal",
    blocks: [],
    close: null,
    submit: null,
    state: { values: form.values },
    hash: "hash",
    private_metadata: form.privateMetadata,
    root_view_id: null,
    previous_view_id: null,
    clear_on_close: false,
    notify_on_close: false,
  };
  const body = {
    type: "view_submission" as const,
    team: { id: TEAM, domain: SANDBOX_TEAM.domain },
    user: { id: user, name: user.toLowerCase(), team_id: TEAM },
    view,
    api_app_id: "A0KASSA",
    token: "verification-token",
    trigger_id: "trigger-view",
  };
  return {
    ...common(world, user),
    payload: view,
    view,
    body,
    ack: async (response?: unknown) => void acks.push(response),
    respond: respondVia(world.slack.responseUrl("view")),
  };
}

function envelope<Event>(event: Event) {
  return {
    token: "verification-token",
    team_id: TEAM,
    api_app_id: "A0KASSA",
    event,
    type: "event_callback" as const,
    event_id: `Ev${Math.random().toString(36).slice(2, 10)}`,
    event_time: 1_764_000_000,
  };
}

/** Events API deliveries, one builder per event Kassa routes. */
export const eventArgs = {
  homeOpened(world: ListenerWorld, user = ADMIN): EventArgs<"app_home_opened"> {
    const event = {
      type: "app_home_opened" as const,
      user,
      channel: "D0HOME",
      tab: "home" as const,
      event_ts: "1764000000.1",
    };
    return {
      ...common(world, user),
      payload: event,
      event,
      body: envelope(event),
      say: sayWith(world.client, "D0HOME"),
    };
  },
  linkShared(world: ListenerWorld, urls: string[], user = MEMBER): EventArgs<"link_shared"> {
    const event = {
      type: "link_shared" as const,
      channel: CHANNEL,
      is_bot_user_member: true,
      user,
      message_ts: "1764000000.000200",
      links: urls.map((url) => ({ domain: new URL(url).hostname, url })),
      event_ts: "1764000000.2",
    };
    return {
      ...common(world, user),
      payload: event,
      event,
      body: envelope(event),
      say: sayWith(world.client, CHANNEL),
    };
  },
  appUninstalled(world: ListenerWorld): EventArgs<"app_uninstalled"> {
    const event = { type: "app_uninstalled" as const, event_ts: "1764000000.3" };
    return { ...common(world, ADMIN), payload: event, event, body: envelope(event) };
  },
  appUninstalledTeam(world: ListenerWorld): EventArgs<"app_uninstalled_team"> {
    const event = {
      type: "app_uninstalled_team" as const,
      app_id: "A0KASSA",
      app_name: "Kassa",
      app_owner_id: ADMIN,
      team_id: TEAM,
      team_domain: SANDBOX_TEAM.domain,
      user_id: ADMIN,
      event_ts: "1764000000.5",
    };
    return { ...common(world, ADMIN), payload: event, event, body: envelope(event) };
  },
  tokensRevoked(world: ListenerWorld, bot: string[]): EventArgs<"tokens_revoked"> {
    const event = { type: "tokens_revoked" as const, tokens: { bot }, event_ts: "1764000000.4" };
    return { ...common(world, ADMIN), payload: event, event, body: envelope(event) };
  },
};
