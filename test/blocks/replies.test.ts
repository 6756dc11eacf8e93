import { describe, expect, it } from "vitest";
import { credentialsRefusedMessage, notConnectedMessage } from "../../src/blocks/admin.js";
import type { SlackMessage } from "../../src/blocks/message.js";
import {
  EXAMPLE_INVOICE_ID,
  ephemeral,
  internalErrorMessage,
  invoiceHelpMessage,
  invoiceNotFoundMessage,
  invoiceUsageMessage,
  REFUSAL_NEXT_STEP,
  serviceErrorMessage,
  unexpectedResponseMessage,
  unreachableMessage,
} from "../../src/blocks/replies.js";
import { UnexpectedResponseError, UnreachableError } from "../../src/payments/errors.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

/** The one mrkdwn section every reply is made of. */
function body(message: SlackMessage): string {
  expect(message.blocks).toHaveLength(1);
  const [block] = message.blocks;
  if (block?.type !== "section" || !block.text) throw new Error("not a section with text");
  expect(block.text.type).toBe("mrkdwn");
  return block.text.text;
}

/** The reply's section, then its context line (details), as mrkdwn. */
function sectionAndDetails(message: SlackMessage): [string, string] {
  expect(message.response_type).toBe("ephemeral");
  expectWithinBlockKitLimits(message);
  const [section, context] = message.blocks;
  if (section?.type !== "section" || !section.text) throw new Error("no section first");
  if (context?.type !== "context") throw new Error("no context line second");
  const [element] = context.elements;
  if (element?.type !== "mrkdwn") throw new Error("context is not mrkdwn");
  return [section.text.text, element.text];
}

/** The action ids of a reply's buttons. */
function buttonIds(message: SlackMessage): string[] {
  return message.blocks.flatMap((block) =>
    block.type === "actions"
      ? block.elements.map((element) => ("action_id" in element ? (element.action_id ?? "") : ""))
      : [],
  );
}

/** Every reply: ephemeral, within Block Kit limits, one section. */
function reply(message: SlackMessage): SlackMessage {
  expect(message.response_type).toBe("ephemeral");
  expect(message.replace_original).toBeUndefined();
  expectWithinBlockKitLimits(message);
  body(message);
  return message;
}

describe("ephemeral", () => {
  it("builds one mrkdwn section and a plain fallback", () => {
    expect(reply(ephemeral("*hi*", "hi"))).toEqual({
      response_type: "ephemeral",
      text: "hi",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "*hi*" } }],
    });
  });

  it("cuts both texts to their limits", () => {
    const message = reply(ephemeral("a".repeat(5000), "b".repeat(5000)));
    expect(body(message)).toBe(`${"a".repeat(2999)}…`);
    expect(message.text).toBe(`${"b".repeat(2999)}…`);
  });
});

describe("invoiceHelpMessage", () => {
  it("explains both ways to name an invoice", () => {
    const message = reply(invoiceHelpMessage({ visibility: "channel" }));
    const text = body(message);
    expect(text).toContain(`\`/invoice ${EXAMPLE_INVOICE_ID}\``);
    expect(text).toContain(`\`/invoice https://pay.crystalpay.io/?i=${EXAMPLE_INVOICE_ID}\``);
    expect(message.text).toMatch(
      /^\/invoice \S+ shows an invoice's state, amounts, commissions and times\.$/,
    );
  });

  it("says where this workspace's cards go", () => {
    expect(body(reply(invoiceHelpMessage({ visibility: "channel" })))).toContain(
      "In this workspace invoice cards are posted in the channel for everyone.",
    );
    const privately = body(reply(invoiceHelpMessage({ visibility: "private" })));
    expect(privately).toContain(
      "In this workspace invoice cards are shown only to whoever asks, with a *Share in channel* button that posts them for everyone.",
    );
    expect(privately).not.toContain("posted in the channel");
    expect(privately).not.toMatch(/live|update automatically/i);
  });
});

describe("invoiceUsageMessage", () => {
  it("quotes the input in code, with the reason", () => {
    const message = reply(invoiceUsageMessage("bad_id", "../.."));
    expect(body(message).split("\n")[0]).toBe(":information_source: That is not a valid invoice id: `../..`");
    expect(body(message)).toContain(`(like \`${EXAMPLE_INVOICE_ID}\`)`);
    expect(message.text).toMatch(/^That is not a valid invoice id\. Usage: \/invoice \S+$/);
  });

  it("escapes the user's input and cuts it to 100 characters", () => {
    const message = reply(invoiceUsageMessage("bad_id", "<!channel> <@U123> & `x`"));
    expect(body(message).split("\n")[0]).toBe(
      ":information_source: That is not a valid invoice id: `&lt;!channel&gt; &lt;@U123&gt; &amp; ˋxˋ`",
    );
    expect(JSON.stringify(message)).not.toContain("<!channel>");
    expect(JSON.stringify(message)).not.toContain("<@U123>");

    const long = reply(invoiceUsageMessage("spaces", "<".repeat(5000)));
    expect(body(long).split("\n")[0]).toBe(
      `:information_source: Give one invoice id, without spaces: \`${"&lt;".repeat(99)}…\``,
    );
  });
});

describe("serviceErrorMessage", () => {
  it("quotes each of the service's messages", () => {
    const message = reply(serviceErrorMessage(["Invalid auth credentials", "`id` field is required"]));
    expect(body(message)).toBe(
      `:warning: The payment service refused the request:\n> Invalid auth credentials\n> \`id\` field is required\n${REFUSAL_NEXT_STEP}`,
    );
    expect(message.text).toBe(
      "The payment service refused the request: Invalid auth credentials; `id` field is required. Nothing was changed; check and try again.",
    );
  });

  it("escapes mentions and links in the service's messages", () => {
    const message = reply(serviceErrorMessage(["Invoice <!here> not found", "see <https://x|y> & <@U123>"]));
    expect(body(message)).toBe(
      `:warning: The payment service refused the request:\n> Invoice &lt;!here&gt; not found\n> see &lt;https://x|y&gt; &amp; &lt;@U123&gt;\n${REFUSAL_NEXT_STEP}`,
    );
    // Slack parses the top-level text for mentions too.
    expect(message.text).toBe(
      "The payment service refused the request: Invoice &lt;!here&gt; not found; see &lt;https://x|y&gt; &amp; &lt;@U123&gt;. Nothing was changed; check and try again.",
    );
    const json = JSON.stringify(message);
    for (const raw of ["<!here>", "<@U123>", "<https://x|y>"]) expect(json).not.toContain(raw);
  });

  it("keeps a multi-line message inside its quote", () => {
    const message = reply(serviceErrorMessage(["line one\n\nline two\t end"]));
    expect(body(message)).toBe(
      `:warning: The payment service refused the request:\n> line one line two end\n${REFUSAL_NEXT_STEP}`,
    );
  });

  it("cuts each message to 500 characters and the whole reply to Slack's limits", () => {
    const one = reply(serviceErrorMessage(["&".repeat(5000)]));
    expect(body(one)).toBe(
      `:warning: The payment service refused the request:\n> ${"&amp;".repeat(99)}…\n${REFUSAL_NEXT_STEP}`,
    );

    const many = reply(
      serviceErrorMessage(Array.from({ length: 50 }, (_, i) => `${i}: ${"x".repeat(5000)}`)),
    );
    expect(body(many)).toHaveLength(3000);
    // However long the service's words, the reader still learns what to do next.
    expect(body(many).endsWith(REFUSAL_NEXT_STEP)).toBe(true);
    expect(many.text.endsWith("Nothing was changed; check and try again.")).toBe(true);
    expect(many.text.length).toBeLessThanOrEqual(3000);
  });
});

describe("notConnectedMessage", () => {
  it("tells finance staff who connects it and how, with no CLI", () => {
    const message = reply(notConnectedMessage(false));
    expect(body(message)).toBe(
      ":electric_plug: Kassa is not connected to this workspace's cash register yet, so there is nothing to look up.\nA workspace admin connects it with `/invoice connect`.",
    );
    expect(message.text).toBe(
      "Kassa is not connected to this workspace's cash register yet. A workspace admin connects it with /invoice connect.",
    );
    expect(JSON.stringify(message)).not.toMatch(/npm|cli|--team|credentials set/);
  });

  it("gives people who may connect a Connect button that opens the modal", () => {
    const message = notConnectedMessage(true);
    expectWithinBlockKitLimits(message);
    expect(message.response_type).toBe("ephemeral");
    expect(buttonIds(message)).toEqual(["kassa_open_connect"]);
    expect(JSON.stringify(message)).toContain("You can connect it now, or with `/invoice connect`.");
    expect(JSON.stringify(message)).not.toMatch(/npm|--team/);
  });
});

describe("credentialsRefusedMessage", () => {
  it("quotes the service, then says the login or secret was refused and who can reconnect", () => {
    const message = reply(credentialsRefusedMessage(["Invalid auth credentials"], false));
    expect(body(message)).toBe(
      [
        ":lock: The payment service answered “Invalid auth credentials”: it refused this workspace's cash register login or secret, so nothing can be looked up.",
        "A workspace admin can reconnect it with `/invoice connect`.",
      ].join("\n"),
    );
    expect(message.text).toContain("refused the cash register's login or secret (Invalid auth credentials)");
  });

  it("offers people who may connect a Reconnect button", () => {
    const message = credentialsRefusedMessage(["Invalid auth credentials"], true);
    expectWithinBlockKitLimits(message);
    expect(buttonIds(message)).toEqual(["kassa_open_connect"]);
    expect(JSON.stringify(message)).toContain('"text":"Reconnect"');
  });
});

describe("invoiceNotFoundMessage", () => {
  it("quotes the id and suggests checking it or pasting the payment link", () => {
    const [section, details] = sectionAndDetails(invoiceNotFoundMessage("123_Nope", ["Invoice not found"]));
    expect(section).toBe(
      ":mag: The payment service has no invoice `123_Nope` for this workspace's cash register.\nCheck the id, or paste the invoice's payment link instead: `/invoice https://pay.crystalpay.io/?i=…`.",
    );
    expect(details).toBe("The payment service said: Invoice not found");
  });
});

describe("unreachableMessage", () => {
  it("says in plain words the service is not answering; status and reference in the context line", () => {
    const message = unreachableMessage(
      new UnreachableError("http-status", 502, "bad gateway"),
      8000,
      "ab12cd34",
    );
    const [section, details] = sectionAndDetails(message);
    expect(section).toBe(
      ":hourglass: The payment service is not answering right now. Try again in a minute.",
    );
    expect(details).toBe("Payment service: HTTP 502, even after retrying · reference `ab12cd34`");
    expect(message.text).toBe("The payment service is not answering right now. Try again in a minute.");
    expect(JSON.stringify(message)).not.toContain("Nothing was changed");
  });

  it("says a status that is not retried (a redirect, a 404) needs the operator, not another try", () => {
    for (const status of [301, 404]) {
      const [section, details] = sectionAndDetails(
        unreachableMessage(new UnreachableError("http-status", status), 8000, "ref"),
      );
      expect(section).toBe(
        ":warning: Kassa cannot reach the payment service at the address it is set up with, so trying again will not help. Ask the Kassa operator to check it.",
      );
      expect(details).toBe(
        `Payment service: HTTP ${status} (operator: check PAYMENTS_API_URL) · reference \`ref\``,
      );
    }
    for (const status of [408, 429, 500, 503, 504]) {
      const [section] = sectionAndDetails(
        unreachableMessage(new UnreachableError("http-status", status), 8000, "r"),
      );
      expect(section).toContain("not answering right now");
    }
  });

  it("names the timeout in seconds in the details", () => {
    const [, details] = sectionAndDetails(unreachableMessage(new UnreachableError("timeout"), 8000, "r"));
    expect(details).toContain("no answer within 8 s, even after retrying");
    const [, longer] = sectionAndDetails(unreachableMessage(new UnreachableError("timeout"), 15_000, "r"));
    expect(longer).toContain("within 15 s");
  });

  it("says the connection failed on a network error, without the transport's detail", () => {
    const message = unreachableMessage(new UnreachableError("network", undefined, "ECONNREFUSED"), 8000, "r");
    const [section, details] = sectionAndDetails(message);
    expect(section).toContain("not answering right now");
    expect(details).toContain("connection failed");
    expect(JSON.stringify(message)).not.toContain("ECONNREFUSED");
  });
});

describe("unexpectedResponseMessage", () => {
  it("carries the reference and none of the response's detail", () => {
    const error = new UnexpectedResponseError("wrong-shape", "amount: expected a decimal <!here>");
    const message = unexpectedResponseMessage(error, "ref-7f3a9c");
    const [, details] = sectionAndDetails(message);
    expect(details).toContain("Reference `ref-7f3a9c`");
    expect(message.text).toBe("The payment service sent an answer Kassa cannot read (reference ref-7f3a9c).");
    expect(JSON.stringify(message)).not.toContain("expected a decimal");
    expect(JSON.stringify(message)).not.toContain("<!here>");
  });
});

describe("internalErrorMessage", () => {
  it("says what happened first, the reference after", () => {
    const message = internalErrorMessage("01HXYZABCD");
    const [section, details] = sectionAndDetails(message);
    expect(section).toBe(
      ":boom: Something went wrong on Kassa's side. Try again; if it keeps happening, tell the Kassa operator.",
    );
    expect(details).toBe("Reference `01HXYZABCD`: the operator finds it in the log.");
    expect(message.text).toBe("Something went wrong on Kassa's side (reference 01HXYZABCD).");
  });
});
