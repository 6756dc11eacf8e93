/**
 * A local stand-in for Slack: the Web API (SLACK_API_URL) and the response_url endpoints that
 * commands answer through. It records every call so tests can read what the app sent. Socket Mode
 * is in slack-socket.ts, who is who and installs in slack-identity.ts, files.uploadV2's steps in
 * slack-files.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { SlackFiles } from "./slack-files.js";
import { SlackIdentity, type SlackInstallGrant, type SlackUserRoles } from "./slack-identity.js";
import { SlackSocketMode, type SocketEnvelope } from "./slack-socket.js";

export type { UploadedFile } from "./slack-files.js";
export { SANDBOX_BOT, SANDBOX_TEAM, type SlackInstallGrant, type SlackUserRoles } from "./slack-identity.js";

/** One Web API call: method, form or JSON body, and the token it was made with (Authorization header). */
export type SlackApiCall = {
  method: string;
  body: Record<string, unknown>;
  token: string | undefined;
  at: number;
};
export type SlackReply = { id: string; body: Record<string, unknown>; at: number };

/**
 * A workflow step's end as the app told it: functions.completeSuccess (its outputs) or
 * functions.completeError (the message the workflow's people see), with the token it used.
 */
export type FunctionCompletion = {
  executionId: string;
  outcome: "success" | "error";
  outputs?: Record<string, unknown>;
  error?: string;
  token: string | undefined;
  at: number;
};

/** A message the app posted with chat.postMessage (and maybe edited with chat.update since). */
export type PostedMessage = {
  channel: string;
  ts: string;
  text: string;
  blocks: Array<Record<string, unknown>>;
  /** Set for a reply in a thread: the ts of the thread's parent. */
  threadTs?: string;
  /** How many times chat.update replaced it, and when it last did. */
  updates: number;
  updatedAt?: number;
  at: number;
};

export type SlackStandIn = {
  /** For SLACK_API_URL (ends with a slash). */
  apiUrl: string;
  apiCalls: SlackApiCall[];
  /** users.info answers with these roles; edit freely between calls. */
  users: Record<string, SlackUserRoles>;
  /** oauth.v2.access answers with this grant. */
  nextInstall: SlackInstallGrant;
  /** Make users.info fail (e.g. "missing_scope"), or succeed again with null. */
  usersInfoError: string | null;
  /** Every functions.completeSuccess / completeError Slack accepted, in order. */
  functionCompletions: FunctionCompletion[];
  /** Resolves with the completions of one step run once there are at least `count` of them. */
  waitForCompletion(
    executionId: string,
    options?: { count?: number; timeoutMs?: number },
  ): Promise<FunctionCompletion[]>;
  /** Calls of one Web API method, in order. */
  callsOf(method: string): SlackApiCall[];
  /** Resolves with the calls of `method` once there are at least `count` of them. */
  waitForCalls(method: string, options?: { count?: number; timeoutMs?: number }): Promise<SlackApiCall[]>;
  /**
   * Make a Web API method (e.g. chat.unfurl) answer `{ok: false, error}` as Slack does (HTTP 200),
   * or answer normally again with null. The call is still recorded.
   */
  failApi(method: string, error: string | null): void;
  /** Socket Mode: open WebSocket connections (apps.connections.open hands out their URL). */
  socketConnections(): number;
  /** Socket Mode: sends an envelope (slash_commands, interactive, events_api) to every connection. */
  sendEnvelope(envelope: SocketEnvelope): void;
  /** Socket Mode: resolves with the app's acknowledgement of an envelope. */
  waitForSocketAck(envelopeId: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  replies: SlackReply[];
  /** A fresh response_url; whatever the app posts there is recorded under `id`. */
  responseUrl(id: string): string;
  /** Resolves with the `count`-th reply posted to that response_url (1 = first). */
  waitForReply(id: string, options?: { timeoutMs?: number; count?: number }): Promise<SlackReply>;
  /** Make the next posts to response_url fail with this HTTP status (0 = back to normal). */
  failReplies(status: number): void;
  /** Messages posted with chat.postMessage, by "channel:ts"; chat.update edits them in place. */
  messages: Map<string, PostedMessage>;
  /** Replies posted in the thread of channel:ts, in order. */
  threadOf(channel: string, ts: string): PostedMessage[];
  /** Resolves when `test` holds for the messages (checked after each post or update). */
  waitForMessages(test: (messages: PostedMessage[]) => boolean, timeoutMs?: number): Promise<void>;
  /**
   * A channel where chat.postMessage answers this error (e.g. "not_in_channel" for a private channel
   * Kassa is not in, "channel_not_found"); chat.update and files.completeUploadExternal (a file
   * shared there) answer it too. null: back to normal.
   */
  failChannel(channel: string, error: string | null): void;
  /**
   * Transient trouble in a channel, as Slack has it: chat.update and/or chat.postMessage there (and
   * files.completeUploadExternal sharing a file there, when `methods` names it) answer HTTP 500,
   * `ratelimited` (HTTP 429 with Retry-After: 1) or never answer (`hang`), for the next `times`
   * calls (Infinity: until cleared with null). The calls are recorded all the same.
   */
  troubleChannel(
    channel: string,
    trouble: { mode: "500" | "ratelimited" | "hang"; methods?: string[]; times?: number } | null,
  ): void;
  /**
   * Bad luck spread over every channel: this fraction of chat.update and chat.postMessage calls (0
   * to 1; 0: none) answer HTTP 500, at random. The calls are recorded all the same.
   */
  failRandomly(fraction: number): void;
  /** How many calls failRandomly has failed so far. */
  readonly randomlyFailed: number;
  /** Top-level posts to `channel` also count as replies on response_url `id` (the command's card). */
  routeChannel(channel: string, id: string): void;
  /** Files uploaded with files.uploadV2, their bytes kept (files.shared(), files.waitFor()). */
  files: SlackFiles;
  /** false: stop keeping Web API calls in apiCalls (a long benchmark would pile them up). */
  keepApiCalls: boolean;
  close(): Promise<void>;
};

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const type = req.headers["content-type"] ?? "";
  if (type.includes("application/json")) {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { _raw: text };
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

export async function startSlackStandIn(): Promise<SlackStandIn> {
  const apiCalls: SlackApiCall[] = [];
  const replies: SlackReply[] = [];
  const waiters: Array<() => void> = [];
  const callWaiters: Array<() => void> = [];
  const apiErrors = new Map<string, string>();
  const functionCompletions: FunctionCompletion[] = [];
  const sockets = new Set<Socket>();
  let replyFailure = 0;
  const identity = new SlackIdentity();
  let viewCounter = 0;
  const messages = new Map<string, PostedMessage>();
  const channelErrors = new Map<string, string>();
  const channelTrouble = new Map<
    string,
    { mode: "500" | "ratelimited" | "hang"; methods: string[]; left: number }
  >();
  const hung = new Set<ServerResponse>();
  let failFraction = 0;
  let randomlyFailed = 0;
  const routes = new Map<string, string>();
  const messageWaiters: Array<() => void> = [];
  let keepApiCalls = true;
  let tsCounter = 0;
  const parseBlocks = (value: unknown): Array<Record<string, unknown>> => {
    if (typeof value === "string") {
      try {
        return JSON.parse(value) as Array<Record<string, unknown>>;
      } catch {
        return [];
      }
    }
    return Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [];
  };

  /** Answers with the channel's trouble when `method` there has some left (true: answered, or hung). */
  const troubled = (channel: string, method: string, res: ServerResponse): boolean => {
    const trouble = channelTrouble.get(channel);
    if (!trouble || trouble.left <= 0 || !trouble.methods.includes(method)) return false;
    trouble.left -= 1;
    if (trouble.mode === "hang") {
      hung.add(res);
      res.on("close", () => hung.delete(res));
      return true;
    }
    if (trouble.mode === "ratelimited") {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ ok: false, error: "ratelimited" }));
      return true;
    }
    res.writeHead(500, { "content-type": "text/plain" });
    res.end("internal error");
    return true;
  };

  const files = new SlackFiles();
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://slack").pathname;
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    // An upload address from files.getUploadURLExternal: bytes, not a form to read as text.
    const upload = /^\/upload\/(\w+)$/.exec(path);
    if (upload?.[1]) {
      const status = await files.receive(upload[1], req);
      res.writeHead(status, { "content-type": "text/plain" });
      return res.end(status === 200 ? `OK - ${upload[1]}` : "upload refused");
    }
    const body = await readBody(req);
    const api = /^\/api\/([\w.]+)$/.exec(path);
    if (api?.[1]) {
      const method = api[1];
      const token =
        /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ??
        (typeof body.token === "string" ? body.token : undefined);
      if (keepApiCalls) apiCalls.push({ method, body, token, at: Date.now() });
      for (const wake of callWaiters.splice(0)) wake();
      const failure = apiErrors.get(method);
      if (failure) return send(200, { ok: false, error: failure });
      // A file shared in a channel (files.completeUploadExternal's channel_id) meets the channel's faults too.
      if (method === "files.completeUploadExternal" && typeof body.channel_id === "string") {
        const failure = channelErrors.get(body.channel_id);
        if (failure) return send(200, { ok: false, error: failure });
        if (troubled(body.channel_id, method, res)) return;
      }
      if (method === "chat.postMessage" || method === "chat.update") {
        const channel = String(body.channel ?? "");
        const failure = channelErrors.get(channel);
        if (failure) return send(200, { ok: false, error: failure });
        if (troubled(channel, method, res)) return;
        if (failFraction > 0 && Math.random() < failFraction) {
          randomlyFailed += 1;
          res.writeHead(500, { "content-type": "text/plain" });
          return res.end("internal error");
        }
        if (!channel) return send(200, { ok: false, error: "channel_not_found" });
        const text = typeof body.text === "string" ? body.text : "";
        const blocks = parseBlocks(body.blocks);
        let posted: PostedMessage;
        if (method === "chat.update") {
          const found = messages.get(`${channel}:${String(body.ts ?? "")}`);
          if (!found) return send(200, { ok: false, error: "message_not_found" });
          found.text = text;
          found.blocks = blocks;
          found.updates += 1;
          found.updatedAt = Date.now();
          posted = found;
        } else {
          tsCounter += 1;
          const ts = `${Math.floor(Date.now() / 1000)}.${String(tsCounter).padStart(6, "0")}`;
          const threadTs = typeof body.thread_ts === "string" ? body.thread_ts : undefined;
          posted = {
            channel,
            ts,
            text,
            blocks,
            updates: 0,
            at: Date.now(),
            ...(threadTs ? { threadTs } : {}),
          };
          messages.set(`${channel}:${ts}`, posted);
          const routed = routes.get(channel);
          if (routed && !threadTs) {
            routes.delete(channel);
            // As Slack shows it: a message everyone in the channel sees.
            replies.push({
              id: routed,
              body: { response_type: "in_channel", text, blocks, channel, ts, via: "chat.postMessage" },
              at: Date.now(),
            });
            for (const wake of waiters.splice(0)) wake();
          }
        }
        for (const wake of messageWaiters.splice(0)) wake();
        return send(200, { ok: true, channel, ts: posted.ts, message: { text, blocks } });
      }
      if (method === "functions.completeSuccess" || method === "functions.completeError") {
        // The Web API client sends objects in a form body as JSON text.
        const executionId = body.function_execution_id;
        const outputs = typeof body.outputs === "string" ? parseObject(body.outputs) : body.outputs;
        if (typeof executionId !== "string" || executionId === "")
          return send(200, { ok: false, error: "invalid_arguments" });
        if (method === "functions.completeError" && typeof body.error !== "string")
          return send(200, { ok: false, error: "invalid_arguments" });
        functionCompletions.push({
          executionId,
          outcome: method === "functions.completeSuccess" ? "success" : "error",
          ...(method === "functions.completeSuccess"
            ? { outputs: (outputs ?? {}) as Record<string, unknown> }
            : { error: String(body.error) }),
          token,
          at: Date.now(),
        });
        for (const wake of messageWaiters.splice(0)) wake();
        return send(200, { ok: true });
      }
      if (method === "conversations.open") {
        const user = String(body.users ?? "");
        if (!/^[UW][A-Z0-9]+$/.test(user)) return send(200, { ok: false, error: "user_not_found" });
        return send(200, { ok: true, channel: { id: `D${user.slice(1)}` } });
      }
      if (method === "files.getUploadURLExternal")
        return send(200, files.start(body, `http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      if (method === "files.completeUploadExternal") return send(200, files.complete(body));
      const identityAnswer = identity.answer(method, body);
      if (identityAnswer) return send(200, identityAnswer);
      if (method === "views.open" || method === "views.update" || method === "views.publish") {
        viewCounter += 1;
        const view =
          typeof body.view === "string" ? (JSON.parse(body.view) as Record<string, unknown>) : body.view;
        return send(200, { ok: true, view: { id: `V0VIEW${viewCounter}`, ...(view as object) } });
      }
      if (method === "apps.connections.open") {
        return send(200, {
          ok: true,
          url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/socket`,
        });
      }
      return send(200, { ok: true });
    }
    const reply = /^\/response\/([\w-]+)$/.exec(path);
    if (reply?.[1]) {
      if (replyFailure) return send(replyFailure, { ok: false, error: "stand-in told to fail" });
      // As Slack: an image of an uploaded file must name one that was shared.
      const images = parseBlocks(body.blocks).filter((block) => block.type === "image" && block.slack_file);
      const unknown = images.some((block) => {
        const id = (block.slack_file as { id?: unknown }).id;
        return typeof id !== "string" || !files.files.get(id)?.completed;
      });
      if (unknown) return send(400, { ok: false, error: "invalid_blocks" });
      replies.push({ id: reply[1], body, at: Date.now() });
      for (const wake of waiters.splice(0)) wake();
      return send(200, { ok: true });
    }
    send(404, { ok: false, error: "unknown_path" });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const socketMode = new SlackSocketMode(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${base}/api/`,
    apiCalls,
    get users() {
      return identity.users;
    },
    set users(value) {
      identity.users = value;
    },
    get nextInstall() {
      return identity.nextInstall;
    },
    set nextInstall(value) {
      identity.nextInstall = value;
    },
    get usersInfoError() {
      return identity.usersInfoError;
    },
    set usersInfoError(value) {
      identity.usersInfoError = value;
    },
    callsOf: (method) => apiCalls.filter((call) => call.method === method),
    functionCompletions,
    waitForCompletion(executionId, { count = 1, timeoutMs = 15_000 } = {}) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`fewer than ${count} completions of ${executionId} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          const found = functionCompletions.filter((entry) => entry.executionId === executionId);
          if (found.length >= count) {
            clearTimeout(timer);
            resolve(found);
          } else messageWaiters.push(check);
        };
        check();
      });
    },
    messages,
    threadOf: (channel, ts) =>
      [...messages.values()].filter((message) => message.channel === channel && message.threadTs === ts),
    waitForMessages(test, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`messages not as expected within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          if (test([...messages.values()])) {
            clearTimeout(timer);
            resolve();
          } else messageWaiters.push(check);
        };
        check();
      });
    },
    waitForCalls(method, { count = 1, timeoutMs = 15_000 } = {}) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`fewer than ${count} ${method} calls within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          const calls = apiCalls.filter((call) => call.method === method);
          if (calls.length >= count) {
            clearTimeout(timer);
            resolve(calls);
          } else callWaiters.push(check);
        };
        check();
      });
    },
    failChannel(channel, error) {
      if (error) channelErrors.set(channel, error);
      else channelErrors.delete(channel);
    },
    failRandomly(fraction) {
      failFraction = Math.min(1, Math.max(0, fraction));
    },
    get randomlyFailed() {
      return randomlyFailed;
    },
    troubleChannel(channel, trouble) {
      if (!trouble) channelTrouble.delete(channel);
      else
        channelTrouble.set(channel, {
          mode: trouble.mode,
          methods: trouble.methods ?? ["chat.update", "chat.postMessage"],
          left: trouble.times ?? Number.POSITIVE_INFINITY,
        });
    },
    files,
    routeChannel(channel, id) {
      routes.set(channel, id);
    },
    get keepApiCalls() {
      return keepApiCalls;
    },
    set keepApiCalls(value) {
      keepApiCalls = value;
    },
    failApi(method, error) {
      if (error === null) apiErrors.delete(method);
      else apiErrors.set(method, error);
    },
    socketConnections: () => socketMode.size,
    sendEnvelope: (envelope) => socketMode.send(envelope),
    waitForSocketAck: (envelopeId, timeoutMs) => socketMode.waitForAck(envelopeId, timeoutMs),
    replies,
    responseUrl: (id) => `${base}/response/${id}`,
    failReplies(status) {
      replyFailure = status;
    },
    waitForReply(id, { timeoutMs = 15_000, count = 1 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = replies.filter((r) => r.id === id)[count - 1];
          if (found) {
            clearTimeout(timer);
            resolve(found);
            return true;
          }
          return false;
        };
        const timer = setTimeout(
          () => reject(new Error(`no reply #${count} on response_url ${id} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const wait = () => {
          if (!check()) waiters.push(wait);
        };
        wait();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        socketMode.close();
        for (const res of hung) res.destroy();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
