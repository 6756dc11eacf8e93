import type {
  App,
  BlockAction,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
} from "@slack/bolt";

type CommandHandler = Middleware<SlackCommandMiddlewareArgs>;
type ActionHandler<A extends BlockAction> = Middleware<SlackActionMiddlewareArgs<A>>;
type EventHandler<E extends string> = Middleware<SlackEventMiddlewareArgs<E>>;

/**
 * Slash commands, block actions and events, each kind behind one Bolt listener that routes by
 * command, action id or event name. Bolt runs every incoming request through the matchers of every
 * registered listener (copying the listener's middleware list and its arguments each time), so each
 * listener costs every slash command a little: registered one by one (12 listeners), that was about
 * 25 µs and 24 KB of garbage per command in the load benchmark. Handlers are written exactly as for
 * `app.command` / `app.action` / `app.event`, with the same typed arguments.
 */
export class ListenerRouter {
  /**
   * @param firstDelivery says whether an Events API delivery is the first of its `event_id`; Slack
   *   delivers an event again when it missed the ack, and each must be handled once.
   */
  constructor(private readonly firstDelivery: (eventId: string) => Promise<boolean> = async () => true) {}

  private readonly commands = new Map<string, CommandHandler>();
  private readonly actions: Array<{ id: string | RegExp; handler: ActionHandler<BlockAction> }> = [];
  private readonly events = new Map<string, EventHandler<string>>();

  /** As `app.command(name, handler)`; one handler per command. */
  command(name: string, handler: CommandHandler): void {
    if (this.commands.has(name)) throw new Error(`command ${name} is routed twice`);
    this.commands.set(name, handler);
  }

  /** As `app.action(id, handler)`: an exact action id, or a pattern (checked in registration order). */
  action<A extends BlockAction = BlockAction>(id: string | RegExp, handler: ActionHandler<A>): void {
    this.actions.push({ id, handler: handler as unknown as ActionHandler<BlockAction> });
  }

  /** As `app.event(name, handler)`; one handler per event name. */
  event<E extends string>(name: E, handler: EventHandler<E>): void {
    if (this.events.has(name)) throw new Error(`event ${name} is routed twice`);
    this.events.set(name, handler as unknown as EventHandler<string>);
  }

  /** Registers the Bolt listeners; requests for commands, ids or names not routed here are not matched. */
  mount(app: App): void {
    if (this.commands.size > 0) {
      const names = [...this.commands.keys()].map(escapeRegExp);
      app.command(new RegExp(`^(?:${names.join("|")})$`), async (args) => {
        await this.commands.get(args.command.command)?.(args);
      });
    }
    if (this.actions.length > 0) {
      const ids = this.actions.map(({ id }) =>
        typeof id === "string" ? `^${escapeRegExp(id)}$` : `(?:${id.source})`,
      );
      app.action<BlockAction>(new RegExp(ids.join("|")), async (args) => {
        const actionId = args.action.action_id;
        const route = this.actions.find(({ id }) =>
          typeof id === "string" ? id === actionId : id.test(actionId),
        );
        await route?.handler(args);
      });
    }
    if (this.events.size > 0) {
      const names = [...this.events.keys()].map(escapeRegExp);
      app.event(new RegExp(`^(?:${names.join("|")})$`), async (args) => {
        const eventId = (args.body as { event_id?: unknown } | undefined)?.event_id;
        if (typeof eventId === "string" && !(await this.firstDelivery(eventId))) return;
        await this.events.get(args.event.type)?.(args);
      });
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
