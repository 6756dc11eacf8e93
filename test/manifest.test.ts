import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BOT_SCOPES } from "../src/app.js";
import { HANDLED } from "../src/listeners/routes.js";
import { PAYMENT_PAGE_HOST } from "../src/payments/payment-link.js";
import { STEP_IDS, STEP_PARAMETERS } from "../src/steps/index.js";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");
/** Slack's JSON Schema for version 1 manifests (draft-07), copied from shared/schemas. */
const schema = JSON.parse(read("./fixtures/slack-app-manifest.schema.1.0.0.json")) as Record<string, unknown>;
const manifest = parse(read("../manifest.yml")) as {
  display_information: { name: string };
  features: {
    slash_commands: Array<{ command: string; url: string; description: string; usage_hint?: string }>;
    app_home: { home_tab_enabled: boolean };
    unfurl_domains?: string[];
  };
  oauth_config: { scopes: { bot: string[] }; redirect_urls: string[] };
  settings: {
    event_subscriptions: { request_url: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url: string };
    function_runtime?: string;
    org_deploy_enabled?: boolean;
  };
  functions?: Record<
    string,
    {
      title: string;
      input_parameters: Record<string, { type: string; name?: string; is_required?: boolean }>;
      output_parameters: Record<string, { type: string; name?: string; is_required?: boolean }>;
    }
  >;
};

/** RFC 3986 absolute URI: a scheme and something after it, as URL parses it. */
function isAbsoluteUri(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  // The schema's only format. ajv-formats would bring dozens for this one: an absolute URL is enough.
  ajv.addFormat("uri", isAbsoluteUri);
  // The schema names its own $schema; draft-07 is Ajv's default.
  const { $schema: _ignored, ...body } = schema;
  return ajv.compile(body);
}

describe("manifest.yml", () => {
  it("is a valid Slack app manifest (version 1 JSON Schema)", () => {
    const validate = validator();
    const valid = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it("knows the schema's uri format: checks it, and compiles without a warning", () => {
    const warnings: unknown[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      const validate = validator();
      expect(validate({ ...manifest, $schema: "https://example.com/schema.json" })).toBe(true);
      expect(validate({ ...manifest, $schema: "not a uri" })).toBe(false);
    } finally {
      console.warn = original;
    }
    expect(warnings).toEqual([]);
  });

  it("would be caught if it were not (the schema rejects unknown keys and bad values)", () => {
    const validate = validator();
    expect(validate({ ...manifest, display_information: { name: "" } })).toBe(false);
    expect(validate({ ...manifest, features: { ...manifest.features, slash_commandz: [] } })).toBe(false);
  });

  it("declares exactly the slash commands the app handles", () => {
    expect(manifest.features.slash_commands.map((command) => command.command).sort()).toEqual(
      [...HANDLED.commands].sort(),
    );
    for (const command of manifest.features.slash_commands) {
      expect(command.url).toBe("https://kassa.example.com/slack/events");
      expect(command.description.length).toBeGreaterThan(0);
      expect(command.usage_hint).toBeTruthy();
    }
  });

  it("subscribes to exactly the events the app handles (function_executed: its workflow steps)", () => {
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual(
      [...HANDLED.events, "function_executed"].sort(),
    );
    expect(manifest.settings.event_subscriptions.request_url).toBe("https://kassa.example.com/slack/events");
  });

  it("enables interactivity, which the app's buttons and modal need, and the App Home tab", () => {
    expect(HANDLED.actions.length).toBeGreaterThan(0);
    expect(HANDLED.views.length).toBeGreaterThan(0);
    expect(manifest.settings.interactivity).toEqual({
      is_enabled: true,
      request_url: "https://kassa.example.com/slack/events",
    });
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
  });

  it("declares exactly the workflow steps the app runs, remotely, with the inputs and outputs they use", () => {
    expect(manifest.settings.function_runtime).toBe("remote");
    expect(manifest.settings.org_deploy_enabled).toBe(true);
    const functions = manifest.functions ?? {};
    expect(Object.keys(functions).sort()).toEqual(Object.values(STEP_IDS).sort());
    for (const [id, declared] of Object.entries(functions)) {
      const used = STEP_PARAMETERS[id as keyof typeof STEP_PARAMETERS];
      expect(Object.keys(declared.input_parameters), id).toEqual([...used.inputs]);
      expect(Object.keys(declared.output_parameters), id).toEqual([...used.outputs]);
      for (const [name, parameter] of [
        ...Object.entries(declared.input_parameters),
        ...Object.entries(declared.output_parameters),
      ])
        expect(parameter.name, `${id}.${name}`).toBe(name);
    }
    // Money is exact text, never a float; a run cannot start without an amount or an invoice.
    const create = functions[STEP_IDS.createInvoice];
    expect(create?.input_parameters.amount).toMatchObject({ type: "string", is_required: true });
    expect(create?.output_parameters.amount?.type).toBe("string");
    expect(functions[STEP_IDS.invoiceStatus]?.input_parameters.invoice?.is_required).toBe(true);
  });

  it("unfurls links of the payment page host, with the scopes and event that takes", () => {
    expect(manifest.features.unfurl_domains).toEqual([PAYMENT_PAGE_HOST]);
    expect(manifest.oauth_config.scopes.bot).toEqual(expect.arrayContaining(["links:read", "links:write"]));
    expect(manifest.settings.event_subscriptions.bot_events).toContain("link_shared");
  });

  it("asks for the scopes the OAuth install asks for, and no more", () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...BOT_SCOPES].sort());
    // Live cards: Kassa posts channel cards itself and updates them; nothing it does not use.
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(["chat:write", "chat:write.public"]),
    );
    expect(manifest.oauth_config.scopes.bot).not.toContain("channels:history");
    expect(manifest.oauth_config.redirect_urls).toEqual(["https://kassa.example.com/slack/oauth_redirect"]);
  });
});
