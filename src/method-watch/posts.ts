import { appendOwed, owedEntryOnce } from "../audit/owed.js";
import type { SlackMessage } from "../blocks/message.js";
import { methodAlertMessage, methodClosedLine, methodOutsideMessage } from "../blocks/method-watch.js";
import type { Lang } from "../i18n/lang.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import type { WatchPost } from "./decide.js";
import type { MethodWatchDeps } from "./deps.js";
import type { OutsideChange } from "./outside.js";
import { changeWatch, type WatchSettings } from "./state.js";

// What a check posts once its decision is written, and how a post that failed is undone: an alert
// stays owed (its episode without `posted`), a closing line's episode comes back, news of a change made
// outside is seen as before. Each is then said by the next check. News is audited before it is posted.

type Alert = Extract<WatchPost, { kind: "alert" }>;
type Closed = Extract<WatchPost, { kind: "closed" }>;
type News = Extract<WatchPost, { kind: "news" }>;

/** Posts in a channel (in a thread when `threadTs`); the message's ts, or undefined when it did not go. */
export async function postIn(
  deps: Pick<MethodWatchDeps, "slack" | "logger">,
  team: string,
  channel: string,
  message: SlackMessage,
  threadTs?: string,
): Promise<string | undefined> {
  try {
    const client = await deps.slack(team);
    if (!client) return undefined;
    const answer = await client.chat.postMessage({
      channel,
      text: message.text,
      blocks: message.blocks,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
    return answer.ts ?? "";
  } catch (error) {
    deps.logger.warn({ team, channel, err: error }, "methods watch: could not post");
    return undefined;
  }
}

type Told = {
  team: string;
  registerKey: string;
  settings: WatchSettings;
  lang: Lang;
  label: string | undefined;
};

/** Says what a check decided: news first (one message), then alerts, then closing lines. */
export async function tell(
  deps: MethodWatchDeps,
  registerKey: string,
  settings: WatchSettings,
  posts: readonly WatchPost[],
  now: number,
): Promise<void> {
  const { team } = registerOfKey(registerKey);
  const [lang, label] = await Promise.all([deps.languageOf(team), deps.labelOf(registerKey)]);
  const told: Told = { team, registerKey, settings, lang, label };
  const news = posts.filter((post): post is News => post.kind === "news");
  if (news.length > 0) await tellNews(deps, told, news, now);
  for (const post of posts) {
    if (post.kind === "alert") await tellAlert(deps, told, post, now);
    else if (post.kind === "closed") await tellClosed(deps, told, post);
  }
}

async function tellAlert(deps: MethodWatchDeps, told: Told, post: Alert, now: number): Promise<void> {
  const { settings } = told;
  const message = methodAlertMessage(
    {
      method: { code: post.code, name: post.name },
      register: registerOfKey(told.registerKey).name,
      label: told.label,
      kind: post.episode.kind,
      window: post.figures.window,
      before: post.figures.before,
      windowMinutes: settings.failure.windowMinutes,
      lastPaidAt: post.figures.lastPaidAt,
      now,
      usualQuietMs: post.figures.usualQuietMs,
      silenceLimitMs: post.assessment.silenceLimitMs,
      silenceMode: settings.silence.mode,
      mention: settings.mention,
      zone: deps.zone,
    },
    told.lang,
  );
  const ts = await postIn(deps, told.team, settings.channel, message);
  deps.logger.info(
    {
      team: told.team,
      register: told.registerKey,
      method: post.code,
      kind: post.episode.kind,
      sent: ts !== undefined,
    },
    ts === undefined ? "method alert not posted; tried again next check" : "method alert posted",
  );
  if (ts === undefined) return;
  const posted = { channel: settings.channel, ts };
  await changeWatch(deps.board, told.registerKey, (state) => {
    const episode = state.episodes[post.code];
    // Snoozed or over meanwhile: nothing to note.
    if (!episode || episode.since !== post.episode.since || episode.posted) return { result: undefined };
    return {
      next: { ...state, episodes: { ...state.episodes, [post.code]: { ...episode, posted } } },
      result: undefined,
    };
  });
}

async function tellClosed(deps: MethodWatchDeps, told: Told, post: Closed): Promise<void> {
  const { posted } = post.episode;
  if (!posted) return;
  const line = methodClosedLine(
    {
      method: { code: post.code, name: post.name },
      how: post.how,
      kind: post.episode.kind,
      sharePercent: told.settings.failure.sharePercent,
      calmMs: deps.calmMs,
    },
    told.lang,
  );
  const ts = await postIn(deps, told.team, posted.channel, line, posted.ts || undefined);
  if (ts !== undefined) return;
  // Not said: the episode back as it was, so the next check ends it (and says so) again.
  await changeWatch(deps.board, told.registerKey, (state) => {
    if (!state.settings || state.episodes[post.code]) return { result: undefined };
    return {
      next: { ...state, episodes: { ...state.episodes, [post.code]: post.episode } },
      result: undefined,
    };
  });
}

async function tellNews(
  deps: MethodWatchDeps,
  told: Told,
  news: readonly News[],
  now: number,
): Promise<void> {
  for (const one of news) await recordOutside(deps, told.registerKey, one.change, one.seenAt, now);
  const message = methodOutsideMessage(
    news.map(({ change }) => ({
      method: { code: change.code, name: change.name },
      before: change.before,
      after: change.after,
    })),
    told.label,
    told.lang,
  );
  const ts = await postIn(deps, told.team, told.settings.channel, message);
  deps.logger.info(
    {
      team: told.team,
      register: told.registerKey,
      methods: news.map((one) => one.change.code),
      sent: ts !== undefined,
    },
    "methods changed outside Kassa",
  );
  if (ts !== undefined) return;
  // Not said: seen as before (and when), so the next check finds the same change and says it.
  await changeWatch(deps.board, told.registerKey, (state) => {
    if (!state.seen) return { result: undefined };
    const methods = { ...state.seen.methods };
    for (const { change } of news) methods[change.code] = change.before;
    const at = Math.min(state.seen.at, ...news.map((one) => one.seenAt));
    return { next: { ...state, seen: { at, methods } }, result: undefined };
  });
}

/**
 * The audit entry of a change made outside: the same entry however often the change is found again
 * (its time and id come from when the list was seen before), written owed, then appended.
 */
async function recordOutside(
  deps: MethodWatchDeps,
  registerKey: string,
  change: OutsideChange,
  seenAt: number,
  now: number,
): Promise<void> {
  const { team, name } = registerOfKey(registerKey);
  const input = {
    team,
    ...(name === MAIN_REGISTER ? {} : { register: name }),
    actor: "kassa",
    action: "method.outside" as const,
    object: `method ${change.code}`,
    before: change.before,
    after: { ...change.after, seenAt: new Date(now).toISOString() },
    outcome: "done" as const,
  };
  const owed = owedEntryOnce(input, {
    at: seenAt + 1,
    id: `method.outside ${registerKey} ${change.code} ${seenAt}`,
  });
  await deps.board.enlistWith(owed);
  await appendOwed(deps, now);
}
