import type { Lang } from "./lang.js";

// Payment links that get paid (issue 51): what a creator is told when Kassa is not sure an invoice
// was made, when its pass finds it after all, and what Create now answers.

export type LinksText = {
  /** The answer was lost: the invoice may exist. `what`: the amount; `why`: no answer, or Kassa's error. */
  unsure: (what: string, why: string) => string;
  unsureNext: string;
  unsureFallback: (what: string) => string;
  createNow: string;
  /** The pass found it by its marker; the card follows. */
  found: (what: string, id: string) => string;
  foundFallback: (id: string) => string;
  /** Found, but Create now had made another meanwhile: both links work. */
  foundTwice: (what: string, first: string, second: string) => string;
  foundTwiceFallback: (first: string) => string;
  /** Create now: a new invoice, its card in the channel. */
  createdNow: (id: string) => string;
  createNowAlready: string;
  createNowFound: (id: string) => string;
  createNowGone: string;
  createNowNotYours: (creator: string) => string;
};

const en: LinksText = {
  unsure: (what, why) =>
    `:hourglass_flowing_sand: Kassa is not sure the invoice for ${what} was made: ${why}. It is looking for it in the cash register's history and will tell you here when it finds it; its card is then posted as usual.`,
  unsureNext:
    "If the payer needs a link now, press *Create now*: Kassa makes a new one, and if the first turns up later you are told (no second card is posted). Otherwise there is nothing to do.",
  unsureFallback: (what) => `Kassa is not sure the invoice for ${what} was made; it is looking for it.`,
  createNow: "Create now",
  found: (what, id) =>
    `:white_check_mark: Found: the invoice for ${what} was made after all (${id}). Its card is in the channel.`,
  foundFallback: (id) => `Found: invoice ${id} was made after all.`,
  foundTwice: (what, first, second) =>
    `:warning: The invoice for ${what} that Kassa was not sure about was made after all: ${first}. You already made ${second} with Create now, so two payment links work: send the payer only one.`,
  foundTwiceFallback: (first) => `Invoice ${first} was made after all: two payment links work now.`,
  createdNow: (id) => `:receipt: Invoice ${id} was created; its card is in the channel.`,
  createNowAlready: "Create now was pressed already: one new invoice was made for this one, no more.",
  createNowFound: (id) =>
    `No new invoice was made: Kassa found the first one, ${id}, and its card is in the channel.`,
  createNowGone:
    "Kassa no longer keeps this attempt, so it made nothing. Run `/invoice new` to make a new invoice.",
  createNowNotYours: (creator) => `Only ${creator}, who asked for this invoice, can press Create now.`,
};

const ru: LinksText = {
  unsure: (what, why) =>
    `:hourglass_flowing_sand: Kassa не уверена, что счёт на ${what} создан: ${why}. Она ищет его в истории кассы и напишет здесь, когда найдёт; тогда его карточка будет опубликована как обычно.`,
  unsureNext:
    "Если ссылка нужна плательщику сейчас, нажмите *Создать сейчас*: Kassa сделает новую, а если первая найдётся позже, вы узнаете об этом (вторая карточка не появится). Иначе делать ничего не нужно.",
  unsureFallback: (what) => `Kassa не уверена, что счёт на ${what} создан; она ищет его.`,
  createNow: "Создать сейчас",
  found: (what, id) =>
    `:white_check_mark: Нашёлся: счёт на ${what} всё-таки создан (${id}). Его карточка в канале.`,
  foundFallback: (id) => `Нашёлся: счёт ${id} всё-таки создан.`,
  foundTwice: (what, first, second) =>
    `:warning: Счёт на ${what}, в котором Kassa не была уверена, всё-таки создан: ${first}. Вы уже создали ${second} кнопкой «Создать сейчас», поэтому работают две ссылки на оплату: отправьте плательщику только одну.`,
  foundTwiceFallback: (first) => `Счёт ${first} всё-таки создан: теперь работают две ссылки на оплату.`,
  createdNow: (id) => `:receipt: Счёт ${id} создан; его карточка в канале.`,
  createNowAlready: "«Создать сейчас» уже нажимали: для этого счёта создан один новый, больше не будет.",
  createNowFound: (id) => `Новый счёт не создан: Kassa нашла первый, ${id}, его карточка в канале.`,
  createNowGone:
    "Kassa больше не хранит эту попытку, поэтому ничего не создала. Запустите `/invoice new`, чтобы создать новый счёт.",
  createNowNotYours: (creator) => `Нажать «Создать сейчас» может только ${creator}: счёт создавал(а) он(а).`,
};

export const LINKS_TEXT: Record<Lang, LinksText> = { en, ru };
