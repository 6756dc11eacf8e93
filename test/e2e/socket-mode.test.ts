import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";

describe("Socket Mode (SLACK_APP_TOKEN)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      env: { SLACK_APP_TOKEN: "xapp-1-A0KASSA-1-sandbox", SLACK_SIGNING_SECRET: "" },
    });
    // Bolt has started once the Socket Mode client is connected; wait for the stand-in to see it.
    for (let waited = 0; stack.slack.socketConnections() === 0 && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("opens the connection with the app token", () => {
    const open = stack.slack.callsOf("apps.connections.open");
    expect(open.length).toBeGreaterThan(0);
    expect(open[0]?.token).toBe("xapp-1-A0KASSA-1-sandbox");
    expect(
      stack.logEntries().find((entry) => entry.msg === "Kassa is connected through Socket Mode"),
    ).toMatchObject({
      mode: "socket-mode",
    });
  });

  it("acknowledges a slash command over the socket and posts the card in its channel", async () => {
    const responseUrl = stack.slack.responseUrl("socket-1");
    stack.slack.routeChannel("C0FINANCE", "socket-1");
    stack.slack.sendEnvelope({
      envelope_id: "env-1",
      type: "slash_commands",
      accepts_response_payload: true,
      payload: {
        token: "x",
        team_id: SANDBOX_TEAM.id,
        team_domain: SANDBOX_TEAM.domain,
        channel_id: "C0FINANCE",
        channel_name: "finance",
        user_id: "U0FINANCE1",
        user_name: "alex",
        command: "/invoice",
        text: "715308958_rPwTzvsvCm",
        api_app_id: "A0KASSA",
        response_url: responseUrl,
        trigger_id: "1.trigger",
      },
    });
    const ack = await stack.slack.waitForSocketAck("env-1");
    expect(ack.envelope_id).toBe("env-1");
    const reply = await stack.slack.waitForReply("socket-1");
    expect((reply.body as { response_type?: string }).response_type).toBe("in_channel");
    expect(JSON.stringify(reply.body)).toContain("Invoice 715308958_rPwTzvsvCm");
  });

  it("runs a workflow step that arrives over the socket and ends it on the run's own token", async () => {
    stack.slack.sendEnvelope({
      envelope_id: "env-step",
      type: "events_api",
      payload: {
        token: "x",
        team_id: SANDBOX_TEAM.id,
        api_app_id: "A0KASSA",
        type: "event_callback",
        event_id: "EvSocketStep",
        event_time: Math.floor(Date.now() / 1000),
        event: {
          type: "function_executed",
          function: { id: "Fn0STATUS", callback_id: "invoice_status", title: "Invoice status", type: "app" },
          inputs: { invoice: "715308958_rPwTzvsvCm" },
          function_execution_id: "FxSOCKET1",
          workflow_execution_id: "WxSOCKET1",
          event_ts: `${Date.now() / 1000}`,
          bot_access_token: "xwfp-socket-run",
        },
      },
    });
    await stack.slack.waitForSocketAck("env-step");
    const [end] = await stack.slack.waitForCompletion("FxSOCKET1");
    expect(end).toMatchObject({ outcome: "success", token: "xwfp-socket-run" });
    expect(end?.outputs).toMatchObject({ invoice_id: "715308958_rPwTzvsvCm", state: "notpayed" });
  });

  it("still answers /healthz for the operator", async () => {
    const response = await fetch(`${stack.url}/healthz`);
    expect(response.status).toBe(200);
    expect((await fetch(`${stack.url}/readyz`)).status).toBe(200);
  });
});
