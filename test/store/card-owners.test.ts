import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CardOwnersStore } from "../../src/store/card-owners.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";

describe("card owners (who may stop a live card)", () => {
  let dir = "";
  let store: KeyvStore | undefined;
  afterEach(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("notes a card's asker and an invoice's creator, reads damaged records as none, and forgets a workspace", async () => {
    dir = mkdtempSync(join(tmpdir(), "kassa-owners-"));
    store = await openStore(`sqlite://${join(dir, "kassa.sqlite")}`);
    const owners = new CardOwnersStore(store.namespace("cardowners"));
    const card = { channel: "C0FIN", ts: "1700000000.000100", invoiceId: "715308958_rPwTzvsvCm" };
    expect(await owners.of("T0A", card)).toEqual({ asker: undefined, creator: undefined });
    await owners.noteCard("T0A", card, "U0ASKER");
    await owners.noteCreator("T0A", card.invoiceId, "U0MAKER");
    await owners.noteCard("T0B", card, "U0OTHER");
    expect(await owners.of("T0A", card)).toEqual({ asker: "U0ASKER", creator: "U0MAKER" });
    // Another card of the invoice: its own asker unknown, the invoice's creator the same.
    expect(await owners.of("T0A", { ...card, ts: "1700000000.000200" })).toEqual({
      asker: undefined,
      creator: "U0MAKER",
    });
    await store.namespace("cardowners").set(`T0A/card/C0FIN/${card.ts}`, { asker: "<!channel>" });
    expect((await owners.of("T0A", card)).asker).toBeUndefined();
    await owners.removeTeam("T0A");
    expect(await owners.of("T0A", card)).toEqual({ asker: undefined, creator: undefined });
    expect((await owners.of("T0B", card)).asker).toBe("U0OTHER");
  });
});
