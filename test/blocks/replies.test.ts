import { describe, expect, it } from "vitest";
import type { SlackMessage } from "../../src/blocks/message.js";
import {
  EXAMPLE_INVOICE_ID,
  ephemeral,
  internalErrorMessage,
  invoiceHelpMessage,
  invoiceUsageMessage,
  notConnectedMessage,
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
    const message = reply(invoiceHelpMessage());
    const text = body(message);
    expect(text).toContain(`\`/invoice ${EXAMPLE_INVOICE_ID}\``);
    expect(text).toContain(`\`/invoice https://pay.crystalpay.io/?i=${EXAMPLE_INVOICE_ID}\``);
    expect(message.text).toMatch(
      /^\/invoice \S+ shows an invoice's state, amounts, commissions and times\.$/,
    );
  });
});

describe("invoiceUsageMessage", () => {
  it("quotes the input in code, with the reason", () => {
    const message = reply(invoiceUsageMessage("That is not a valid invoice id", "../.."));
    expect(body(message).split("\n")[0]).toBe(":information_source: That is not a valid invoice id: `../..`");
    expect(body(message)).toContain(`(like \`${EXAMPLE_INVOICE_ID}\`)`);
    expect(message.text).toMatch(/^That is not a valid invoice id\. Usage: \/invoice \S+$/);
  });

  it("escapes the user's input and cuts it to 100 characters", () => {
    const message = reply(invoiceUsageMessage("That is not a valid invoice id", "<!channel> <@U123> & `x`"));
    expect(body(message).split("\n")[0]).toBe(
      ":information_source: That is not a valid invoice id: `&lt;!channel&gt; &lt;@U123&gt; &amp; ˋxˋ`",
    );
    expect(JSON.stringify(message)).not.toContain("<!channel>");
    expect(JSON.stringify(message)).not.toContain("<@U123>");

    const long = reply(invoiceUsageMessage("Give one invoice id, without spaces", "<".repeat(5000)));
    expect(body(long).split("\n")[0]).toBe(
      `:information_source: Give one invoice id, without spaces: \`${"&lt;".repeat(99)}…\``,
    );
  });
});

describe("serviceErrorMessage", () => {
  it("quotes each of the service's messages", () => {
    const message = reply(serviceErrorMessage(["Invalid auth credentials", "`id` field is required"]));
    expect(body(message)).toBe(
      ":warning: The payment service refused the request:\n> Invalid auth credentials\n> `id` field is required",
    );
    expect(message.text).toBe(
      "The payment service refused the request: Invalid auth credentials; `id` field is required",
    );
  });

  it("escapes mentions and links in the service's messages", () => {
    const message = reply(serviceErrorMessage(["Invoice <!here> not found", "see <https://x|y> & <@U123>"]));
    expect(body(message)).toBe(
      ":warning: The payment service refused the request:\n> Invoice &lt;!here&gt; not found\n> see &lt;https://x|y&gt; &amp; &lt;@U123&gt;",
    );
    // Slack parses the top-level text for mentions too.
    expect(message.text).toBe(
      "The payment service refused the request: Invoice &lt;!here&gt; not found; see &lt;https://x|y&gt; &amp; &lt;@U123&gt;",
    );
    const json = JSON.stringify(message);
    for (const raw of ["<!here>", "<@U123>", "<https://x|y>"]) expect(json).not.toContain(raw);
  });

  it("keeps a multi-line message inside its quote", () => {
    const message = reply(serviceErrorMessage(["line one\n\nline two\t end"]));
    expect(body(message)).toBe(":warning: The payment service refused the request:\n> line one line two end");
  });

  it("cuts each message to 500 characters and the whole reply to Slack's limits", () => {
    const one = reply(serviceErrorMessage(["&".repeat(5000)]));
    expect(body(one)).toBe(`:warning: The payment service refused the request:\n> ${"&amp;".repeat(99)}…`);

    const many = reply(
      serviceErrorMessage(Array.from({ length: 50 }, (_, i) => `${i}: ${"x".repeat(5000)}`)),
    );
    expect(body(many)).toHaveLength(3000);
    expect(many.text).toHaveLength(3000);
  });
});

describe("notConnectedMessage", () => {
  it("names the team in the operator's command", () => {
    const message = reply(notConnectedMessage("T012AB3C4"));
    expect(body(message)).toContain(
      "`npm run cli -- credentials set --team T012AB3C4 --login &lt;login&gt; --secret -`",
    );
    expect(message.text).toBe(
      "This workspace has no cash register connected yet. A workspace admin can connect it with /invoice connect.",
    );
    expect(body(message)).toContain("`/invoice connect`");
  });

  it("escapes and cuts a strange team id", () => {
    const message = reply(notConnectedMessage(`<!here>${"T".repeat(100)}`));
    expect(body(message)).toContain(`--team &lt;!here&gt;${"T".repeat(26)}… --login`);
    expect(JSON.stringify(message)).not.toContain("<!here>");
  });
});

describe("unreachableMessage", () => {
  it("names the HTTP status", () => {
    const message = reply(unreachableMessage(new UnreachableError("http-status", 502, "bad gateway"), 8000));
    expect(body(message)).toBe(
      ":hourglass: Could not get an answer: the payment service answered HTTP 502, even after retrying. Nothing was changed; try again in a minute.",
    );
    expect(message.text).toBe("Could not get an answer: the payment service answered HTTP 502.");
  });

  it("says a status that is not retried (a redirect, a 404) needs the operator, not another try", () => {
    for (const status of [301, 404]) {
      const message = reply(unreachableMessage(new UnreachableError("http-status", status), 8000));
      expect(body(message)).toBe(
        `:warning: Could not get an answer: the payment service answered HTTP ${status}. Nothing was changed, and trying again will not help: ask the Kassa operator to check the payment service's address (PAYMENTS_API_URL).`,
      );
      expect(message.text).toBe(`Could not get an answer: the payment service answered HTTP ${status}.`);
    }
    for (const status of [408, 429, 500, 503, 504]) {
      expect(body(reply(unreachableMessage(new UnreachableError("http-status", status), 8000)))).toContain(
        "even after retrying",
      );
    }
  });

  it("names the timeout in seconds", () => {
    const message = reply(unreachableMessage(new UnreachableError("timeout"), 8000));
    expect(body(message)).toContain("the payment service did not answer within 8 s, even after retrying");
    expect(message.text).toBe("Could not get an answer: the payment service did not answer within 8 s.");
    expect(body(reply(unreachableMessage(new UnreachableError("timeout"), 15_000)))).toContain("within 15 s");
  });

  it("says the service could not be reached on a network error", () => {
    const message = reply(
      unreachableMessage(new UnreachableError("network", undefined, "ECONNREFUSED"), 8000),
    );
    expect(message.text).toBe("Could not get an answer: the payment service could not be reached.");
    expect(body(message)).not.toContain("ECONNREFUSED");
  });
});

describe("unexpectedResponseMessage", () => {
  it("carries the reference and none of the response's detail", () => {
    const error = new UnexpectedResponseError("wrong-shape", "amount: expected a decimal <!here>");
    const message = reply(unexpectedResponseMessage(error, "ref-7f3a9c"));
    expect(body(message)).toContain("Reference `ref-7f3a9c`");
    expect(message.text).toBe("The payment service sent an answer Kassa cannot read (reference ref-7f3a9c).");
    expect(JSON.stringify(message)).not.toContain("expected a decimal");
    expect(JSON.stringify(message)).not.toContain("<!here>");
  });
});

describe("internalErrorMessage", () => {
  it("carries the reference id", () => {
    const message = reply(internalErrorMessage("01HXYZABCD"));
    expect(body(message)).toBe(
      ":boom: Something went wrong on Kassa's side. Reference `01HXYZABCD`: the operator finds it in the log.",
    );
    expect(message.text).toBe("Something went wrong on Kassa's side (reference 01HXYZABCD).");
  });
});
