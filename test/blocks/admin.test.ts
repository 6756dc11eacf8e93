import type { types } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import {
  connectionSummary,
  disconnectConfirmMessage,
  maskLogin,
  notAllowedMessage,
  statusMessage,
} from "../../src/blocks/admin.js";
import { checkingModal, connectedModal, connectModal } from "../../src/blocks/connect-modal.js";
import { homeView } from "../../src/blocks/home.js";
import { CONNECT_VIEW } from "../../src/blocks/ids.js";
import type { ConnectionInfo } from "../../src/store/credentials.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

const INFO: ConnectionInfo = {
  teamId: "T0TEAM",
  login: "shop_register",
  apiVersion: "v3",
  connectedBy: "U0ADMIN",
  connectedAt: "2026-11-22T10:00:00.000Z",
  hasSalt: false,
  otherKey: null,
};

describe("maskLogin", () => {
  it.each([
    ["shop_register", "sh***er"],
    ["abcde", "ab***de"],
    ["abcd", "a***"],
    ["a", "a***"],
  ])("%s -> %s", (login, masked) => {
    expect(maskLogin(login)).toBe(masked);
  });
});

describe("connectionSummary and statusMessage", () => {
  it("names the masked login, who, when (a date token) and the version", () => {
    const text = connectionSummary(INFO, "v2");
    expect(text).toContain("`sh***er`");
    expect(text).not.toContain("shop_register");
    expect(text).toContain("by <@U0ADMIN>");
    expect(text).toContain(`<!date^${Date.parse(INFO.connectedAt) / 1000}^`);
    expect(text).toContain("API v3");
  });

  it("says when the default version applies, and escapes an operator's free-text name", () => {
    const text = connectionSummary({ ...INFO, apiVersion: null, connectedBy: "<!channel> cli" }, "v2");
    expect(text).toContain("API v2 (default)");
    expect(text).toContain("&lt;!channel&gt; cli");
    expect(text).not.toContain("<!channel>");
  });

  it("tells people who can manage how, and others who can", () => {
    const admin = statusMessage(INFO, { defaultVersion: "v2", visibility: "private", canManage: true });
    expect(JSON.stringify(admin)).toContain("/invoice disconnect");
    expect(JSON.stringify(admin)).toContain("privately to the asker");
    const member = statusMessage(undefined, {
      defaultVersion: "v2",
      visibility: "channel",
      canManage: false,
    });
    expect(member.text).toBe("No cash register is connected.");
    expect(JSON.stringify(member)).toContain("Workspace admins and owners can change this.");
    for (const message of [admin, member]) expectWithinBlockKitLimits(message);
  });
});

describe("connectModal", () => {
  it("never carries a secret, and makes it optional only when one is stored", () => {
    const fresh = connectModal({
      hasSecret: false,
      apiVersion: "v2",
      visibility: "channel",
      privateMetadata: "{}",
    });
    const update = connectModal({
      login: "shop",
      hasSecret: true,
      apiVersion: "v3",
      visibility: "private",
      privateMetadata: "{}",
    });
    const secretOf = (view: typeof fresh) => {
      const isInput = (one: (typeof view.blocks)[number]): one is types.InputBlock => one.type === "input";
      const block = view.blocks.filter(isInput).find((one) => one.block_id === "secret");
      if (!block) throw new Error("the form has no secret input");
      return block;
    };
    expect(secretOf(fresh).optional).toBe(false);
    expect(secretOf(update).optional).toBe(true);
    expect(secretOf(update).element).not.toHaveProperty("initial_value");
    expect(JSON.stringify(update)).toContain('"initial_value":"shop"');
    expect(JSON.stringify(update)).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"v3"},"value":"v3"}',
    );
    expect(update.callback_id).toBe(CONNECT_VIEW);
    // Modal title, submit and close within Slack's 24 characters.
    for (const view of [fresh, update, checkingModal(), connectedModal(INFO, 20, "v2")]) {
      expect(view.title.text.length).toBeLessThanOrEqual(24);
      if (view.submit) expect(view.submit.text.length).toBeLessThanOrEqual(24);
      if (view.close) expect(view.close.text.length).toBeLessThanOrEqual(24);
      expect(view.blocks.length).toBeLessThanOrEqual(100);
    }
  });

  it("shows a late error under the secret, escaped and bounded", () => {
    const view = connectModal({
      hasSecret: false,
      apiVersion: "v2",
      visibility: "channel",
      privateMetadata: "{}",
      error: `<!here> ${"x".repeat(5000)}`,
    });
    const error = JSON.stringify(view.blocks.find((block) => block.type === "context"));
    expect(error).toContain("&lt;!here&gt;");
    expect(error.length).toBeLessThan(2200);
  });
});

describe("App Home and the disconnect question", () => {
  it("offers Update and a confirmed Disconnect to managers only", () => {
    const manager = JSON.stringify(
      homeView(INFO, { defaultVersion: "v2", visibility: "channel", canManage: true }),
    );
    expect(manager).toContain('"text":"Update"');
    expect(manager).toContain("kassa_disconnect");
    expect(manager).toContain('"confirm":{');
    const member = JSON.stringify(
      homeView(INFO, { defaultVersion: "v2", visibility: "channel", canManage: false }),
    );
    expect(member).not.toContain("kassa_open_connect");
    const empty = JSON.stringify(
      homeView(undefined, { defaultVersion: "v2", visibility: "channel", canManage: true }),
    );
    expect(empty).toContain('"text":"Connect"');
    expect(empty).not.toContain("kassa_disconnect");
  });

  it("tells everyone that pasted payment links unfurl", () => {
    const home = JSON.stringify(
      homeView(INFO, { defaultVersion: "v2", visibility: "channel", canManage: false }),
    );
    expect(home).toContain("Paste a payment page link in a channel");
  });

  it("asks before disconnecting, naming the workspace in the button", () => {
    const message = disconnectConfirmMessage(INFO, "T0TEAM");
    expectWithinBlockKitLimits(message);
    expect(JSON.stringify(message)).toContain('"value":"{\\"t\\":\\"T0TEAM\\"}"');
    expect(notAllowedMessage("connect").response_type).toBe("ephemeral");
  });
});
