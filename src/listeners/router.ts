import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  BlockButtonAction,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackViewMiddlewareArgs,
  types,
  ViewSubmitAction,
} from "@slack/bolt";
import { commandAcknowledged } from "../edge/command-once.js";
import type { ListenerDeps } from "./deps.js";

/** The arguments Bolt gives an `app.command` listener. */
export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;
/** The arguments Bolt gives an `app.action` listener; Kassa's routed ids are all on buttons it built. */
export type ActionArgs<A extends BlockAction = BlockButtonAction> = SlackActionMiddlewareArgs<A> &
  AllMiddlewareArgs;
/** The arguments Bolt gives an `app.view` listener for a modal's submission. */
export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
/** The arguments Bolt gives an `app.event` listener. */
export type EventArgs<E extends string> = SlackEventMiddlewareArgs<E> & AllMiddlewareArgs;

/** A handler is built once, when the app starts, from what it uses of ListenerDeps. */
type Handler<Args> = (deps: ListenerDeps) => (args: Args) => Promise<void>;

type EventName = types.SlackEvent["type"];
type EventRoute = { [E in EventName]: { event: E; handler: Handler<EventArgs<E>> } }[EventName];

/** One line of the route table (src/listeners/routes.ts). */
export type Route =
  | { command: string; handler: Handler<CommandArgs> }
  | { action: string | RegExp; handler: Handler<ActionArgs> }
  | { view: string; handler: Handler<ViewArgs> }
  | EventRoute;

type CommandHandler = Middleware<SlackCommandMiddlewareArgs>;
type ActionHandler<A extends BlockAction> = Middleware<SlackActionMiddlewareArgs<A>>;
type ViewHandler = Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>>;
type EventHandler<E extends string> = Middleware<SlackEventMiddlewareArgs<E>>;

/**
 * Slash commands, block actions, modal submissions and events, each kind behind one Bolt listener that
 * routes by command, action id, callback id or event name. Bolt runs every incoming request through
 * the matchers of every registered listener (copying the listener's middleware list and its arguments
 * each time), so each listener costs every request a little (figures in docs/benchmarks.md).
 * Handlers get exactly the typed arguments of `app.command` / `app.action` / `app.view` /
 * `app.event`, and a RegExp action id matches with its own flags, as in Bolt.
 * Unlike Bolt, a request runs only the first route that matches it (in the order routed), not every one.
 */
export class ListenerRouter {
  /**
   * @param firstDelivery says whether an Events API delivery is the first of its `event_id`; Slack
   *   delivers an event again when it missed the ack, and each must be handled once.
   */
  constructor(private readonly firstDelivery: (eventId: string) => Promise<boolean> = async () => true) {}

  private readonly commands = new Map<string, CommandHandler>();
  private readonly actions: Array<{ id: string | RegExp; handler: ActionHandler<BlockAction> }> = [];
  private readonly views = new Map<string, ViewHandler>();
  private readonly events = new Map<string, EventHandler<string>>();

  /** Every line of a route table, each handler built with `deps`. */
  routeAll(routes: readonly Route[], deps: ListenerDeps): void {
    for (const route of routes) {
      if ("command" in route) this.command(route.command, route.handler(deps));
      else if ("action" in route) this.action(route.action, route.handler(deps));
      else if ("view" in route) this.view(route.view, route.handler(deps));
      else this.event<string>(route.event, (route.handler as Handler<EventArgs<string>>)(deps));
    }
  }

  /** As `app.command(name, handler)`; one handler per command. */
  command(name: string, handler: CommandHandler): void {
    if (this.commands.has(name)) throw new Error(`command ${name} is routed twice`);
    this.commands.set(name, handler);
  }

  /** As `app.action(id, handler)`: an exact action id, or a pattern (checked in registration order). */
  action<A extends BlockAction = BlockAction>(id: string | RegExp, handler: ActionHandler<A>): void {
    this.actions.push({ id, handler: handler as unknown as ActionHandler<BlockAction> });
  }

  /** As `app.view(callbackId, handler)` for submissions; one handler per callback id. */
  view(callbackId: string, handler: ViewHandler): void {
    if (this.views.has(callbackId)) throw new Error(`view ${callbackId} is routed twice`);
    this.views.set(callbackId, handler);
  }

  /** As `app.event(name, handler)`; one handler per event name. */
  event<E extends string>(name: E, handler: EventHandler<E>): void {
    if (this.events.has(name)) throw new Error(`event ${name} is routed twice`);
    this.events.set(name, handler as unknown as EventHandler<string>);
  }

  /** Registers the Bolt listeners; requests for commands, ids or names not routed here are not matched. */
  mount(app: App): void {
    if (this.commands.size > 0) {
      app.command(exactly([...this.commands.keys()]), async (args) => {
        // Acknowledged already (edge/command-once.ts, before it asked the store): every handler acks
        // empty, its replies go to the response_url.
        const ack = commandAcknowledged(args.context) ? async () => {} : args.ack;
        await this.commands.get(args.command.command)?.({ ...args, ack });
      });
    }
    if (this.actions.length > 0) {
      const routeFor = (actionId: string) => this.actions.find(({ id }) => matches(id, actionId));
      app.action<BlockAction>(new AnyOf(this.actions.map(({ id }) => id)), async (args) => {
        await routeFor(args.action.action_id)?.handler(args);
      });
    }
    if (this.views.size > 0) {
      app.view<ViewSubmitAction>(exactly([...this.views.keys()]), async (args) => {
        await this.views.get(args.view.callback_id)?.(args);
      });
    }
    if (this.events.size > 0) {
      app.event(exactly([...this.events.keys()]), async (args) => {
        const eventId = (args.body as { event_id?: unknown } | undefined)?.event_id;
        if (typeof eventId === "string" && !(await this.firstDelivery(eventId))) return;
        await this.events.get(args.event.type)?.(args);
      });
    }
  }
}

function matches(id: string | RegExp, text: string): boolean {
  return typeof id === "string" ? id === text : text.match(id) !== null;
}

/**
 * The one pattern Bolt's matcher sees for all action routes. Bolt matches with `String#match`, so
 * each RegExp route is tried with its own flags (and its groups reach `context.actionIdMatches`).
 */
class AnyOf extends RegExp {
  constructor(private readonly ids: ReadonlyArray<string | RegExp>) {
    super(ids.map((id) => (typeof id === "string" ? `^${escapeRegExp(id)}$` : `(?:${id.source})`)).join("|"));
  }

  override [Symbol.match](text: string): RegExpMatchArray | null {
    const id = this.ids.find((candidate) => matches(candidate, text));
    if (id === undefined) return null;
    return typeof id === "string" ? /^[\s\S]*$/.exec(text) : text.match(id);
  }

  override test(text: string): boolean {
    return this.ids.some((id) => matches(id, text));
  }
}

function exactly(names: string[]): RegExp {
  return new RegExp(`^(?:${names.map(escapeRegExp).join("|")})$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
