import { describe, expect, it } from "vitest";
import { parsePaymentLink, paymentLinksToUnfurl } from "../../src/payments/payment-link.js";

const ID = "715308958_rPwTzvsvCm";

describe("parsePaymentLink", () => {
  it.each([
    [`https://pay.crystalpay.io/?i=${ID}`, { invoiceId: ID }],
    [`https://pay.crystalpay.io?i=${ID}`, { invoiceId: ID }],
    [`https://PAY.crystalpay.io/?i=${ID}`, { invoiceId: ID }],
    [`https://pay.crystalpay.io/?i=${ID}&m=BITCOIN`, { invoiceId: ID, method: "BITCOIN" }],
    [`https://pay.crystalpay.io/?m=CARDRUBP2P&i=${ID}`, { invoiceId: ID, method: "CARDRUBP2P" }],
    // Slack may pass `&` escaped, as it does in message text.
    [`https://pay.crystalpay.io/?i=${ID}&amp;m=BITCOIN`, { invoiceId: ID, method: "BITCOIN" }],
    ["https://pay.crystalpay.io/?i=a-b_C9", { invoiceId: "a-b_C9" }],
  ])("reads %s", (url, expected) => {
    expect(parsePaymentLink(url)).toEqual(expected);
  });

  it.each([
    ["another host", `https://evil.example/?i=${ID}`],
    ["a look-alike host", `https://pay.crystalpay.io.evil.example/?i=${ID}`],
    ["a subdomain", `https://www.pay.crystalpay.io/?i=${ID}`],
    ["plain http", `http://pay.crystalpay.io/?i=${ID}`],
    ["another port", `https://pay.crystalpay.io:8443/?i=${ID}`],
    ["credentials in the URL", `https://user:pw@pay.crystalpay.io/?i=${ID}`],
    ["another path", `https://pay.crystalpay.io/invoice?i=${ID}`],
    ["the site's home page", "https://pay.crystalpay.io/"],
    ["no id", "https://pay.crystalpay.io/?m=BITCOIN"],
    ["an empty id", "https://pay.crystalpay.io/?i="],
    ["an id with a space", "https://pay.crystalpay.io/?i=7153%20x"],
    ["an id with markup", "https://pay.crystalpay.io/?i=%3C!channel%3E"],
    ["an id too long", `https://pay.crystalpay.io/?i=${"a".repeat(65)}`],
    ["a repeated id", `https://pay.crystalpay.io/?i=${ID}&i=other`],
    ["an unknown parameter", `https://pay.crystalpay.io/?i=${ID}&redirect=https://evil.example`],
    ["a bad method", `https://pay.crystalpay.io/?i=${ID}&m=<b>`],
    ["a fragment", `https://pay.crystalpay.io/?i=${ID}#x`],
    ["not a URL", "pay.crystalpay.io/?i=x"],
    ["garbage", "https://"],
  ])("ignores %s", (_what, url) => {
    expect(parsePaymentLink(url)).toBeNull();
  });
});

describe("paymentLinksToUnfurl", () => {
  const link = (n: number) => `https://pay.crystalpay.io/?i=inv_${n}`;

  it("keeps payment links in the order shared, each URL once, and drops everything else", () => {
    expect(
      paymentLinksToUnfurl(
        [link(1), "https://pay.crystalpay.io/faq", link(2), link(1), `${link(3)}&m=BITCOIN`],
        5,
      ),
    ).toEqual([
      { url: link(1), invoiceId: "inv_1" },
      { url: link(2), invoiceId: "inv_2" },
      { url: `${link(3)}&m=BITCOIN`, invoiceId: "inv_3", method: "BITCOIN" },
    ]);
  });

  it("stops at the limit, counting only payment links", () => {
    const urls = ["https://pay.crystalpay.io/faq", ...Array.from({ length: 8 }, (_, i) => link(i + 1))];
    expect(paymentLinksToUnfurl(urls, 5).map((entry) => entry.invoiceId)).toEqual([
      "inv_1",
      "inv_2",
      "inv_3",
      "inv_4",
      "inv_5",
    ]);
  });

  it("keys each entry by the exact URL Slack sent", () => {
    const escaped = `${link(9)}&amp;m=BITCOIN`;
    expect(paymentLinksToUnfurl([escaped], 5)).toEqual([
      { url: escaped, invoiceId: "inv_9", method: "BITCOIN" },
    ]);
  });
});
