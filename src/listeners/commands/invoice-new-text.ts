import { remindOfWord } from "../../blocks/invoice-create-remind.js";
import { type RepeatPrefill, splitRepeat } from "./invoice-repeat-text.js";

// `/invoice new`'s words: what the form opens with. Everything is checked again when it is submitted.

/** What `/invoice new [amount] [currency] [customer NAME] [email ADDRESS] [description]` fills in. */
export type CreatePrefill = {
  amount?: string;
  currency?: string;
  description?: string;
  /** Who it is for (issue 51): `customer "Acme Ltd"`, `customer Acme` (Russian `клиент`). */
  customer?: string;
  /** The payer's e-mail: `email pay@acme.example` (v3 registers only; the command says so on v2). */
  email?: string;
  /** Minutes before expiry to remind the creator: `remind 1h|6h` (Russian `напомнить 1ч|6ч`). */
  remind?: number;
  /** `remind` followed by anything else: the command says which it takes. */
  remindUnclear?: string;
  /** `every week|month …` at the end (issue 51): the form's Repeat fields; "invalid": words it cannot read. */
  repeat?: RepeatPrefill | "invalid";
};

/** `customer` and a name: quoted (straight, curly or «») or one word. */
const CUSTOMER = /^(?:customer|клиент)\s+(?:"([^"]+)"|“([^”]+)”|«([^»]+)»|(\S+))(?:\s+|$)/i;
/** `email` (or `e-mail`, Russian `почта`) and an address: a word with an @, or Slack's mailto link. */
const EMAIL = /^(?:e-?mail|почта)\s+(?:<mailto:([^|>\s]+)(?:\|[^>]*)?>|(\S+@\S+))(?:\s+|$)/i;

/** `remind` and how long before the link expires, in hours (`remind me …` stays a description). */
const REMIND = /^(?:remind|напомнить)\s+(\d+\s?(?:h|ч)\S*)(?:\s+|$)/i;

/** Slack escapes &, < and > in a command's text; the modal shows plain text. */
function unescaped(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * `/invoice new 1500 USD customer "Acme Ltd" email pay@acme.example Order 10232`: an amount if the
 * first word looks like one (a comma is read as the decimal point), a currency if the next word is
 * one of `currencies`, then, right after them and in either order, who it is for and the payer's
 * e-mail; the rest is the description (a description that merely mentions an e-mail stays whole).
 */
export function parseCreateText(whole: string, currencies: readonly string[]): CreatePrefill {
  const { before: text, repeat } = splitRepeat(whole);
  const words = text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  const prefill: CreatePrefill = repeat ? { repeat } : {};
  if (words[0] && /^\d+([.,]\d+)?$/.test(words[0])) prefill.amount = (words.shift() ?? "").replace(",", ".");
  const currency = words[0]?.toUpperCase();
  if (currency && currencies.includes(currency)) {
    prefill.currency = currency;
    words.shift();
  }
  let rest = words.join(" ");
  for (let found = true; found && rest !== ""; ) {
    const customer = prefill.customer === undefined ? CUSTOMER.exec(rest) : null;
    const email = customer || prefill.email !== undefined ? null : EMAIL.exec(rest);
    const asked = prefill.remind !== undefined || prefill.remindUnclear !== undefined;
    const remind = customer || email || asked ? null : REMIND.exec(rest);
    const match = customer ?? email ?? remind;
    found = match !== null;
    if (customer) prefill.customer = unescaped(customer.slice(1).find((part) => part) ?? "").trim();
    if (email) prefill.email = unescaped(email[1] ?? email[2] ?? "");
    if (remind) remindOf(prefill, remind[1] ?? "");
    if (match) rest = rest.slice(match[0].length);
  }
  if (prefill.customer === "") delete prefill.customer;
  if (rest !== "") prefill.description = unescaped(rest);
  return prefill;
}

/** `remind 6h`: its minutes, or the word kept to say it is not one Kassa takes. */
function remindOf(prefill: CreatePrefill, word: string): void {
  const minutes = remindOfWord(word);
  if (minutes === undefined) prefill.remindUnclear = unescaped(word).slice(0, 20);
  else prefill.remind = minutes;
}
