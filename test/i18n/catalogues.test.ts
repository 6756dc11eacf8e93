import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LANGS } from "../../src/i18n/lang.js";
import { englishWords, russianLetters } from "../support/english-words.js";

// Every catalogue in src/i18n/ (an export named *_TEXT with one entry per language): each message,
// called with stand-in arguments where it takes some, is Russian only in Russian and has no Cyrillic
// in English. The type check already fails when a language lacks a message; this catches a message
// left in English in the Russian catalogue.

const FOLDER = join(import.meta.dirname, "../../src/i18n");

/** Every string a catalogue entry yields: strings, lists, records, and functions called with stand-ins. */
function messages(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") into.push(value);
  else if (typeof value === "function") {
    for (const args of [
      ["U0STANDIN", "U0STANDIN", "U0STANDIN", "U0STANDIN", "U0STANDIN"],
      [2, 2, 2, 2, 2],
      [1, 1, 1, 1, 1],
    ])
      try {
        messages((value as (...args: unknown[]) => unknown)(...args), into);
      } catch {
        // Stand-ins of the wrong kind for this message (a number where it takes words): the other set fits.
      }
  } else if (Array.isArray(value)) for (const item of value) messages(item, into);
  else if (typeof value === "object" && value !== null)
    for (const item of Object.values(value)) messages(item, into);
  return into;
}

async function catalogues(): Promise<Array<[string, Record<string, unknown>]>> {
  const found: Array<[string, Record<string, unknown>]> = [];
  for (const file of readdirSync(FOLDER).filter((name) => name.endsWith(".ts"))) {
    const module = (await import(join(FOLDER, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (name.endsWith("_TEXT") && typeof value === "object" && value !== null)
        found.push([`${file} ${name}`, value as Record<string, unknown>]);
    }
  }
  return found;
}

describe("the catalogues", () => {
  it("are found, one entry per language each", async () => {
    const found = await catalogues();
    expect(found.length).toBeGreaterThanOrEqual(15);
    for (const [name, catalogue] of found)
      expect(Object.keys(catalogue).sort(), name).toEqual([...LANGS].sort());
  });

  it("Russian messages have no English word; English ones no Cyrillic", async () => {
    for (const [name, catalogue] of await catalogues()) {
      const russian = messages(catalogue.ru);
      expect(russian.length, name).toBeGreaterThan(0);
      for (const text of russian) expect(englishWords({ text }), `${name}: ${text}`).toEqual([]);
      for (const text of messages(catalogue.en))
        expect(russianLetters({ text }), `${name}: ${text}`).toEqual([]);
    }
  });
});
