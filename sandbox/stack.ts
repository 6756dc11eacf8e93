/**
 * The whole app wired for real (receiver, SQLite store, payments client) against local stand-ins:
 * the fake payment service and the Slack stand-in. End-to-end tests and `npm run demo` both use it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { runCli } from "../src/cli.js";
import type { Env } from "../src/config/index.js";
import type { PayoutTiming } from "../src/payouts/request-deps.js";
import { type BackgroundPasses, type RunningServer, startServer } from "../src/server.js";
import type { Clock } from "../src/util/clock.js";
import {
  type FakePayments,
  type FakePaymentsOptions,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  startFakePayments,
} from "./fake-payments.js";
import { signedHeaders } from "./sign.js";
import { SANDBOX_TEAM, type SlackReply, type SlackStandIn, startSlackStandIn } from "./slack.js";

export const SANDBOX_SIGNING_SECRET = "sandbox-signing-secret-0123456789abcdef";
export const SANDBOX_BOT_TOKEN = "xoxb-sandbox-0000000000-kassa";
export const SANDBOX_CREDENTIALS_KEY = Buffer.alloc(32, 7).toString("base64");

export const SANDBOX_OAUTH_ENV = {
  SLACK_CLIENT_ID: "1111.2222",
  SLACK_CLIENT_SECRET: "sandbox-client-secret-abcdef",
  SLACK_STATE_SECRET: "sandbox-state-secret-0123456789",
};

export type StackOptions = {
  /** single: SLACK_BOT_TOKEN (default); oauth: SLACK_CLIENT_ID/SECRET/STATE_SECRET, no token. */
  slackMode?: "single" | "oauth";
  apiVersion?: "v2" | "v3";
  /** Connect the sandbox team's cash register before starting (default true). */
  connect?: boolean;
  /** Extra or overriding environment variables. */
  env?: Env;
  fake?: FakePaymentsOptions;
  /** The app's time and timers (the system's by default); tests give a clock they move. */
  clock?: Clock;
  /** How long the server reuses credentials and settings in memory (0: tests that change them with the CLI). */
  storeMemoMs?: number;
  /** Where the watches live in a shared Redis or PostgreSQL (tests give each run its own). */
  watchNamespace?: string;
  /** The payout worker's timing (follow-ups, retries); tests shorten them. */
  payoutTiming?: Partial<PayoutTiming>;
  /** How often refused requests are summed up in the log (default a minute). */
  refusalSummaryMs?: number;
  /**
   * Runs the app under test elsewhere (e.g. in a child process, for `npm run bench`) instead of in
   * this process; given the environment the in-process app would get. Default: startServer here.
   */
  startApp?: (env: Env) => Promise<AppUnderTest>;
};

export type CommandOptions = {
  command?: string;
  /** Default: a channel of its own, so the card Kassa posts there is this command's reply. */
  channelId?: string;
  teamId?: string;
  userId?: string;
  /** Sign with another secret (to test rejection). */
  signingSecret?: string;
  timestamp?: number;
  contentType?: string;
  /** A workspace of an Enterprise Grid org where Kassa is installed org-wide (is_enterprise_install). */
  enterpriseId?: string;
};

/** A workflow step run as Slack delivers it (function_executed). */
export type StepRun = {
  /** The step's callback id (the manifest's `functions` key). */
  callbackId: string;
  inputs: Record<string, unknown>;
  /** Default: a new one; give the same one (and the same eventId) to deliver a run again. */
  executionId?: string;
  eventId?: string;
  retryNum?: number;
  teamId?: string;
  /** Installed org-wide on this Enterprise Grid org. */
  enterpriseId?: string;
};

/** Slack's view of the acknowledgement: status, body, how long it took, and when the command was sent. */
export type Ack = {
  status: number;
  body: string;
  ms: number;
  sentAt: number;
  responseId: string;
  /** The request as it went (body and headers): sendAgain() posts it once more. */
  sent: { body: string; headers: Record<string, string> };
};

/** The app as a stack runs it: in this process (with its background passes on demand) or elsewhere. */
type AppUnderTest = Pick<RunningServer, "port" | "stop"> & { passes?: BackgroundPasses };

/** Background jobs a test can ask a pass of (BackgroundPasses' names). */
export type BackgroundJob = keyof BackgroundPasses;

/** The audit trail's jobs and the payment links' pass: records kept on the claim board. */
const RECORD_JOBS: BackgroundJob[] = ["auditDay", "auditOwed", "links", "schedules"];
const ALERT_JOBS: BackgroundJob[] = ["moneyAlerts", "methodWatch"];
const ALL_JOBS: BackgroundJob[] = ["feed", "liveCards", "digests", "payouts", ...ALERT_JOBS, ...RECORD_JOBS];

let counter = 0;

export class Stack {
  readonly logs: string[] = [];
  private server: AppUnderTest | undefined;
  private startApp: (() => Promise<AppUnderTest>) | undefined;

  private constructor(
    readonly fake: FakePayments,
    readonly slack: SlackStandIn,
    readonly dir: string,
    readonly env: Env,
  ) {}

  static async start(options: StackOptions = {}): Promise<Stack> {
    const fake = await startFakePayments(options.fake);
    const slack = await startSlackStandIn();
    const dir = mkdtempSync(join(tmpdir(), "kassa-"));
    const env: Env = {
      PORT: "0",
      SLACK_SIGNING_SECRET: SANDBOX_SIGNING_SECRET,
      ...(options.slackMode === "oauth" ? SANDBOX_OAUTH_ENV : { SLACK_BOT_TOKEN: SANDBOX_BOT_TOKEN }),
      SLACK_API_URL: slack.apiUrl,
      PAYMENTS_API_URL: fake.url,
      PAYMENTS_API_VERSION: options.apiVersion ?? "v2",
      PAYMENTS_TIMEOUT_MS: "8000",
      STORE_URL: `sqlite://${join(dir, "kassa.sqlite")}`,
      CREDENTIALS_KEY: SANDBOX_CREDENTIALS_KEY,
      LOG_LEVEL: "info",
      // Tests and the demo send far more than a person would; the rate limit test sets its own.
      RATE_LIMIT_USER_PER_MIN: "0",
      RATE_LIMIT_TEAM_PER_MIN: "0",
      ...options.env,
    };
    const stack = new Stack(fake, slack, dir, env);
    try {
      if (options.connect ?? true)
        await stack.cli(
          ["credentials", "set", "--team", SANDBOX_TEAM.id, "--login", SANDBOX_LOGIN, "--secret", "-"],
          SANDBOX_SECRET,
        );
      stack.startApp = options.startApp
        ? () => (options.startApp as NonNullable<StackOptions["startApp"]>)(env)
        : () =>
            startServer(env, {
              logDestination: { write: (line: string) => void stack.logs.push(line) },
              paymentsRetryDelayMs: 20,
              ...(options.storeMemoMs === undefined ? {} : { storeMemoMs: options.storeMemoMs }),
              ...(options.clock ? { clock: options.clock } : {}),
              ...(options.watchNamespace ? { watchNamespace: options.watchNamespace } : {}),
              ...(options.refusalSummaryMs ? { refusalSummaryMs: options.refusalSummaryMs } : {}),
              ...(options.payoutTiming ? { payoutTiming: options.payoutTiming } : {}),
            });
      stack.server = await stack.startApp();
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  get url(): string {
    if (!this.server) throw new Error("the app is not running");
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Runs the operators' CLI against this stack's store; returns exit code and output. */
  async cli(argv: string[], stdinText = ""): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = "";
    let stderr = "";
    const sink = (append: (text: string) => void) =>
      new Writable({
        write(chunk, _encoding, done) {
          append(String(chunk));
          done();
        },
      });
    const stdin = new PassThrough();
    stdin.end(stdinText);
    const code = await runCli(argv, {
      env: this.env,
      stdin,
      stdout: sink((text) => {
        stdout += text;
      }),
      stderr: sink((text) => {
        stderr += text;
      }),
    });
    return { code, stdout, stderr };
  }

  /** Posts a signed slash command to /slack/events as Slack does; resolves when Slack would get the ack. */
  async command(text: string, options: CommandOptions = {}): Promise<Ack> {
    counter += 1;
    const responseId = `r${counter}-${Date.now().toString(36)}`;
    const channelId = options.channelId ?? `C0FIN${counter}`;
    this.slack.routeChannel(channelId, responseId);
    const form = new URLSearchParams({
      token: "deprecated-verification-token",
      team_id: options.teamId ?? SANDBOX_TEAM.id,
      team_domain: SANDBOX_TEAM.domain,
      channel_id: channelId,
      channel_name: "finance",
      user_id: options.userId ?? "U0FINANCE1",
      user_name: "alex",
      command: options.command ?? "/invoice",
      text,
      api_app_id: "A0KASSA",
      ...(options.enterpriseId
        ? { enterprise_id: options.enterpriseId, enterprise_name: "Grid Org", is_enterprise_install: "true" }
        : { is_enterprise_install: "false" }),
      response_url: this.slack.responseUrl(responseId),
      trigger_id: `${counter}.trigger`,
    }).toString();
    const headers = signedHeaders(options.signingSecret ?? SANDBOX_SIGNING_SECRET, form, options.timestamp);
    if (options.contentType) headers["content-type"] = options.contentType;
    const sentAt = Date.now();
    const started = performance.now();
    const response = await fetch(`${this.url}/slack/events`, { method: "POST", headers, body: form });
    const body = await response.text();
    const sent = { body: form, headers };
    return { status: response.status, body, ms: performance.now() - started, sentAt, responseId, sent };
  }

  /**
   * Posts a command's request again, byte for byte with its signature and timestamp: a replay by
   * whoever copied it, or (with `retryNum`, the X-Slack-Retry-Num header) Slack's own retry.
   */
  async sendAgain(ack: Ack, options: { retryNum?: number } = {}): Promise<Ack> {
    const headers = {
      ...ack.sent.headers,
      ...(options.retryNum === undefined ? {} : { "x-slack-retry-num": String(options.retryNum) }),
    };
    const sentAt = Date.now();
    const started = performance.now();
    const response = await fetch(`${this.url}/slack/events`, {
      method: "POST",
      headers,
      body: ack.sent.body,
    });
    const body = await response.text();
    return { ...ack, status: response.status, body, ms: performance.now() - started, sentAt };
  }

  /** Posts a signed block_actions payload, as Slack does when someone presses a button. */
  async action(
    actionId: string,
    value: string,
    options: {
      teamId?: string;
      userId?: string;
      blockId?: string;
      message?: Record<string, unknown>;
      /** The button sits on an ephemeral (private) message. */
      ephemeral?: boolean;
      /** Where the pressed message is (default C0FINANCE, 1700000000.000100). */
      channelId?: string;
      messageTs?: string;
      /** Installed org-wide on this Enterprise Grid org. */
      enterpriseId?: string;
      /** Pressed on App Home: no message, channel or response_url, as Slack sends it from a view. */
      onHome?: boolean;
    } = {},
  ): Promise<Ack> {
    counter += 1;
    const responseId = `a${counter}-${Date.now().toString(36)}`;
    const teamId = options.teamId ?? SANDBOX_TEAM.id;
    const payload = {
      type: "block_actions",
      api_app_id: "A0KASSA",
      token: "deprecated-verification-token",
      team: { id: teamId, domain: SANDBOX_TEAM.domain },
      user: { id: options.userId ?? "U0FINANCE1", username: "alex", team_id: teamId },
      ...(options.enterpriseId
        ? { enterprise: { id: options.enterpriseId, name: "Grid Org" }, is_enterprise_install: true }
        : {}),
      ...(options.onHome
        ? {
            container: { type: "view", view_id: "V0HOME" },
            view: { id: "V0HOME", type: "home", blocks: [], private_metadata: "" },
          }
        : {
            container: {
              type: "message",
              message_ts: options.messageTs ?? "1700000000.000100",
              channel_id: options.channelId ?? "C0FINANCE",
              is_ephemeral: options.ephemeral ?? false,
            },
            channel: { id: options.channelId ?? "C0FINANCE", name: "finance" },
            message: options.message ?? { type: "message", ts: "1700000000.000100", text: "", blocks: [] },
            response_url: this.slack.responseUrl(responseId),
          }),
      trigger_id: `${counter}.trigger`,
      actions: [
        {
          type: "button",
          action_id: actionId,
          block_id: options.blockId ?? "block",
          value,
          text: { type: "plain_text", text: "button" },
          action_ts: `${Date.now() / 1000}`,
        },
      ],
    };
    const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const sentAt = Date.now();
    const started = performance.now();
    const headers = signedHeaders(SANDBOX_SIGNING_SECRET, form);
    const response = await fetch(`${this.url}/slack/events`, { method: "POST", headers, body: form });
    return {
      status: response.status,
      body: await response.text(),
      ms: performance.now() - started,
      sentAt,
      responseId,
      sent: { body: form, headers },
    };
  }

  /** Presses a button and waits for the app's answer on the action's response_url. */
  async press(actionId: string, value: string, options: Parameters<Stack["action"]>[2] = {}) {
    const ack = await this.action(actionId, value, options);
    if (ack.status !== 200) throw new Error(`action was not acknowledged: HTTP ${ack.status} ${ack.body}`);
    return { ack, reply: await this.slack.waitForReply(ack.responseId) };
  }

  /** Posts a signed payload (block_actions, view_submission, ...) as Slack's interactivity does. */
  async interaction(payload: Record<string, unknown>): Promise<{ status: number; body: string }> {
    const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const response = await fetch(`${this.url}/slack/events`, {
      method: "POST",
      headers: signedHeaders(SANDBOX_SIGNING_SECRET, form),
      body: form,
    });
    return { status: response.status, body: await response.text() };
  }

  /** Submits a modal as Slack does; `values` maps block_id to the input's value. */
  async submitView(options: {
    /** The view as Kassa opened it (any shape: its fields are sent back as they are). */
    view: object;
    /**
     * value: a text input; selected: a select or radio; ticked: checkboxes or a multi-select; users:
     * the people picker; conversation: the channel picker.
     */
    values: Record<
      string,
      {
        value?: string | null;
        selected?: string | null;
        ticked?: string[];
        users?: string[];
        conversation?: string;
        /** A multi_conversations_select's channels. */
        conversations?: string[];
      }
    >;
    userId?: string;
    teamId?: string;
    viewId?: string;
    /** Installed org-wide on this Enterprise Grid org. */
    enterpriseId?: string;
  }): Promise<{ status: number; body: string; json: Record<string, unknown> | null }> {
    const teamId = options.teamId ?? SANDBOX_TEAM.id;
    const state = Object.fromEntries(
      Object.entries(options.values).map(([blockId, entry]) => [
        blockId,
        {
          value: entry.conversations
            ? { type: "multi_conversations_select", selected_conversations: entry.conversations }
            : entry.conversation
              ? { type: "conversations_select", selected_conversation: entry.conversation }
              : entry.users
                ? { type: "multi_users_select", selected_users: entry.users }
                : entry.ticked
                  ? {
                      type: "checkboxes",
                      selected_options: entry.ticked.map((value) => ({
                        value,
                        text: { type: "plain_text", text: value },
                      })),
                    }
                  : entry.selected === undefined
                    ? { type: "plain_text_input", value: entry.value ?? null }
                    : {
                        type: "static_select",
                        selected_option:
                          entry.selected === null
                            ? null
                            : { value: entry.selected, text: { type: "plain_text", text: entry.selected } },
                      },
        },
      ]),
    );
    const result = await this.interaction({
      type: "view_submission",
      team: { id: teamId, domain: SANDBOX_TEAM.domain },
      user: { id: options.userId ?? "U0ADMIN", username: "admin", team_id: teamId },
      ...(options.enterpriseId
        ? { enterprise: { id: options.enterpriseId, name: "Grid Org" }, is_enterprise_install: true }
        : {}),
      api_app_id: "A0KASSA",
      token: "deprecated-verification-token",
      trigger_id: `${++counter}.trigger`,
      view: {
        ...options.view,
        id: options.viewId ?? "V0VIEW1",
        team_id: teamId,
        state: { values: state },
        hash: "1.hash",
      },
    });
    let json: Record<string, unknown> | null = null;
    try {
      json = result.body ? (JSON.parse(result.body) as Record<string, unknown>) : null;
    } catch {}
    return { ...result, json };
  }

  /** Posts a signed Events API callback (JSON) as Slack does. */
  async event(
    event: Record<string, unknown>,
    /** eventId and retryNum: to deliver the same event again, as Slack does when it missed the ack. */
    options: { teamId?: string; eventId?: string; retryNum?: number; enterpriseId?: string } = {},
  ): Promise<{ status: number; body: string; eventId: string }> {
    const teamId = options.teamId ?? SANDBOX_TEAM.id;
    const eventId = options.eventId ?? `Ev${++counter}`;
    // An org-wide install is authorised for the org: its authorization names no workspace.
    const authorization = options.enterpriseId
      ? { enterprise_id: options.enterpriseId, team_id: null, is_enterprise_install: true }
      : { enterprise_id: null, team_id: teamId, is_enterprise_install: false };
    const text = JSON.stringify({
      token: "deprecated-verification-token",
      team_id: teamId,
      ...(options.enterpriseId ? { enterprise_id: options.enterpriseId } : {}),
      api_app_id: "A0KASSA",
      type: "event_callback",
      event_id: eventId,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ ...authorization, user_id: "U0KASSABOT", is_bot: true }],
      event,
    });
    const headers: Record<string, string> = {
      ...signedHeaders(SANDBOX_SIGNING_SECRET, text),
      "content-type": "application/json",
    };
    if (options.retryNum !== undefined) {
      headers["x-slack-retry-num"] = String(options.retryNum);
      headers["x-slack-retry-reason"] = "http_timeout";
    }
    const response = await fetch(`${this.url}/slack/events`, { method: "POST", headers, body: text });
    return { status: response.status, body: await response.text(), eventId };
  }

  /**
   * Runs a workflow step as Slack does: a function_executed event carrying the run's id, its inputs
   * and a short-lived function token of its own (xwfp-). Resolves with the run's ids once acknowledged.
   */
  async runStep(
    run: StepRun,
  ): Promise<{ status: number; executionId: string; token: string; eventId: string }> {
    counter += 1;
    const executionId = run.executionId ?? `Fx${counter}${Date.now().toString(36).toUpperCase()}`;
    const token = `xwfp-sandbox-${executionId}`;
    const result = await this.event(
      {
        type: "function_executed",
        function: {
          id: `Fn0${run.callbackId.toUpperCase()}`,
          callback_id: run.callbackId,
          title: run.callbackId,
          type: "app",
          input_parameters: [],
          output_parameters: [],
          app_id: "A0KASSA",
          date_created: 1_700_000_000,
          date_updated: 1_700_000_000,
          date_deleted: 0,
        },
        inputs: run.inputs,
        function_execution_id: executionId,
        workflow_execution_id: `Wx${executionId}`,
        event_ts: `${Date.now() / 1000}`,
        bot_access_token: token,
      },
      {
        ...(run.teamId ? { teamId: run.teamId } : {}),
        ...(run.eventId ? { eventId: run.eventId } : {}),
        ...(run.retryNum === undefined ? {} : { retryNum: run.retryNum }),
        ...(run.enterpriseId ? { enterpriseId: run.enterpriseId } : {}),
      },
    );
    return { status: result.status, executionId, token, eventId: result.eventId };
  }

  /**
   * Posts a signed link_shared event, as Slack does when someone posts a message with links of the
   * app's unfurl domains (`composer`: still being written, known only by its unfurl id).
   */
  async shareLinks(
    urls: string[],
    options: {
      teamId?: string;
      userId?: string;
      channel?: string;
      source?: "composer" | "conversations_history";
    } = {},
  ): Promise<{ status: number; body: string; eventId: string; messageTs: string }> {
    const messageTs = `${Math.floor(Date.now() / 1000)}.${String(++counter).padStart(6, "0")}`;
    const source = options.source ?? "conversations_history";
    const result = await this.event(
      {
        type: "link_shared",
        channel: source === "composer" ? "COMPOSER" : (options.channel ?? "C0FINANCE"),
        is_bot_user_member: true,
        user: options.userId ?? "U0FINANCE1",
        message_ts: messageTs,
        unfurl_id: `U_${counter}_${Date.now().toString(36)}`,
        source,
        links: urls.map((url) => ({ domain: new URL(url).hostname, url })),
        event_ts: messageTs,
      },
      options.teamId === undefined ? {} : { teamId: options.teamId },
    );
    return { ...result, messageTs };
  }

  /** Sends a command and waits for the app's answer on its response_url. */
  async ask(text: string, options: CommandOptions = {}): Promise<{ ack: Ack; reply: SlackReply }> {
    const ack = await this.command(text, options);
    if (ack.status !== 200) throw new Error(`command was not acknowledged: HTTP ${ack.status} ${ack.body}`);
    const reply = await this.slack.waitForReply(ack.responseId);
    return { ack, reply };
  }

  /**
   * A pass of each named background job (all of them when none is named), one after another, each
   * after the one under way: what a test asks for instead of waiting for an interval. `rounds`: how
   * many such passes in a row (a feed's post and its repeat check, say).
   */
  async pass(jobs: BackgroundJob | BackgroundJob[] = ALL_JOBS, rounds = 1): Promise<void> {
    const passes = this.server?.passes;
    if (!passes) throw new Error("the app under test runs elsewhere: its passes cannot be asked for");
    for (let round = 0; round < rounds; round += 1)
      for (const job of typeof jobs === "string" ? [jobs] : jobs) await passes[job]();
  }

  /** Parsed JSON log lines written so far. */
  logEntries(): Array<Record<string, unknown>> {
    return this.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Stops the app and starts it again on the same store (a deploy or a crash, as a finance team sees it). */
  async restart(): Promise<void> {
    await this.stopApp();
    await this.startAgain();
  }

  /** Stops the app only (the stand-ins keep running): what happens while Kassa is down. */
  async stopApp(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
  }

  /** Starts the app again on the same store after stopApp(). */
  async startAgain(): Promise<void> {
    if (!this.startApp) throw new Error("the app was never started");
    this.server = await this.startApp();
  }

  /**
   * A second replica: another app on the same environment (the same store, which must be a shared
   * one, Redis or PostgreSQL, and the same stand-ins). Stop it with stopApp(); stop() stops all.
   */
  async replica(): Promise<Stack> {
    if (!this.startApp) throw new Error("the app was never started");
    const other = new Stack(this.fake, this.slack, this.dir, this.env);
    other.startApp = this.startApp;
    other.server = await other.startApp();
    return other;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
    await Promise.allSettled([this.fake.close(), this.slack.close()]);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
