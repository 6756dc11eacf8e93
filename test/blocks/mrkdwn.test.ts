import { describe, expect, it } from "vitest";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "../../src/blocks/mrkdwn.js";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("escapeMrkdwn", () => {
  it.each([
    ["plain text", "plain text"],
    ["a & b", "a &amp; b"],
    ["<!channel>", "&lt;!channel&gt;"],
    ["<!here|here>", "&lt;!here|here&gt;"],
    ["<@U123>", "&lt;@U123&gt;"],
    ["<#C123|general>", "&lt;#C123|general&gt;"],
    ["<https://x|y>", "&lt;https://x|y&gt;"],
    ["&lt;", "&amp;lt;"],
    ["&amp;", "&amp;amp;"],
    ["<<&&>>", "&lt;&lt;&amp;&amp;&gt;&gt;"],
    ["", ""],
  ])("%j -> %j", (input, escaped) => {
    expect(escapeMrkdwn(input)).toBe(escaped);
  });

  it("leaves other mrkdwn characters alone (only &, <, > are control characters)", () => {
    expect(escapeMrkdwn("*bold* _it_ ~s~ `code` :x: | \"q\" 'q'")).toBe(
      "*bold* _it_ ~s~ `code` :x: | \"q\" 'q'",
    );
  });
});

describe("truncate", () => {
  it("cuts to nothing at a limit of 0", () => {
    expect(truncate("abc", 0)).toBe("");
    expect(truncate("abc", 1)).toBe("…");
  });

  it("returns text at or under the limit unchanged", () => {
    expect(truncate("hello", 5)).toBe("hello");
    expect(truncate("hello", 6)).toBe("hello");
    expect(truncate("", 1)).toBe("");
    expect(truncate("&amp;", 5)).toBe("&amp;");
  });

  it("cuts to exactly the limit, ending in …", () => {
    expect(truncate("hello!", 5)).toBe("hell…");
    expect(truncate("abcdefghij", 2)).toBe("a…");
    expect(truncate("abcdefghij", 1)).toBe("…");
    expect(truncate("x".repeat(10_000), 3000)).toBe(`${"x".repeat(2999)}…`);
  });

  it("never splits a surrogate pair", () => {
    // "ab😀cd": the emoji is two UTF-16 units, at indexes 2 and 3.
    expect(truncate("ab😀cd", 4)).toBe("ab…");
    expect(truncate("ab😀cd", 5)).toBe("ab😀…");
    expect(truncate("😀😀😀", 4)).toBe("😀…");
    expect(truncate("😀😀😀", 5)).toBe("😀😀…");
  });

  it("never cuts an escape entity in half", () => {
    expect(truncate("ab&amp;cd", 8)).toBe("ab&amp;…");
    for (const limit of [4, 5, 6, 7]) expect(truncate("ab&amp;cd", limit)).toBe("ab…");
    for (const limit of [4, 5, 6]) expect(truncate("ab&lt;cd", limit)).toBe("ab…");
    expect(truncate("ab&lt;cd", 7)).toBe("ab&lt;…");
    expect(truncate("ab&gt;cd", 6)).toBe("ab…");
    expect(truncate("&lt;&gt;&amp;xyz", 10)).toBe("&lt;&gt;…");
    expect(truncate("&lt;&gt;&amp;xyz", 14)).toBe("&lt;&gt;&amp;…");
  });

  it("keeps every property for many lengths and limits", () => {
    const pieces = ["a", "😀", "&amp;", "&lt;", "&gt;", " ", "é"];
    const failures: string[] = [];
    let checked = 0;
    for (let seed = 1; seed <= 60; seed++) {
      let text = "";
      for (let i = 0; i < 40 + seed; i++) text += pieces[(seed * 7 + i * i * 3 + i) % pieces.length];
      for (let limit = 1; limit <= text.length + 1; limit++) {
        const cut = truncate(text, limit);
        checked++;
        const fail = (why: string) => failures.push(`${JSON.stringify(text)} @${limit}: ${why}`);
        if (text.length <= limit) {
          if (cut !== text) fail("changed text within the limit");
          continue;
        }
        const kept = cut.slice(0, -1);
        if (cut.length > limit) fail(`length ${cut.length}`);
        if (!cut.endsWith("…")) fail("no …");
        if (!text.startsWith(kept)) fail("not a prefix");
        if (LONE_SURROGATE.test(kept)) fail("lone surrogate");
        // What is kept ends on a piece boundary: no "&am", "&l", half an emoji.
        if (/&[a-z]{0,3}$/.test(kept)) fail("cut entity");
        // It drops at most one piece (5 units) more than the limit demands.
        if (kept.length < limit - 1 - 4) fail(`dropped too much: ${kept.length}`);
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe("safeText", () => {
  it("escapes first, then cuts, so the cut never lands inside an entity", () => {
    expect(safeText("<!here>", 100)).toBe("&lt;!here&gt;");
    expect(safeText("a&b", 3)).toBe("a…");
    expect(safeText("&&&&", 12)).toBe("&amp;&amp;…");
    expect(safeText("<".repeat(100), 50)).toBe(`${"&lt;".repeat(12)}…`);
  });
});

describe("inlineCode", () => {
  it("wraps escaped text in backticks", () => {
    expect(inlineCode("BITCOIN")).toBe("`BITCOIN`");
    expect(inlineCode("<!channel> & <@U1>")).toBe("`&lt;!channel&gt; &amp; &lt;@U1&gt;`");
  });

  it("swaps backticks so the text cannot end the code span early", () => {
    expect(inlineCode("a`b")).toBe("`aˋb`");
    expect(inlineCode("``")).toBe("`ˋˋ`");
    expect(inlineCode("`<!here>`")).toBe("`ˋ&lt;!here&gt;ˋ`");
  });
});

describe("control and direction characters from outside", () => {
  const hostile =
    "Order\u202E#1042\u2066x\u2069\u202A\u202B\u202C\u202D\u200E\u200F\u0000\u0007\t\u001B[31m\u007F end\nnext";

  it("are removed by escaping and by cutting, newlines kept", () => {
    expect(escapeMrkdwn(hostile)).toBe("Order#1042x[31m end\nnext");
    expect(truncate(hostile, 100)).toBe("Order#1042x[31m end\nnext");
    expect(safeText(`<@U1>${hostile}`, 13)).toBe("&lt;@U1&gt;O…");
    expect(inlineCode("a\u202Eb")).toBe("`ab`");
  });

  it("leave other text, emoji and non-Latin scripts alone", () => {
    const text = "Заказ №5 — 👍🏽 مرحبا";
    expect(escapeMrkdwn(text)).toBe(text);
  });
});
