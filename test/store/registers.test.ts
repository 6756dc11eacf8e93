/**
 * The register directory and names: names that can never read as a command word, keys that leave a
 * workspace's first register where releases before registers kept it, and a directory that loses no
 * change when two replicas change it at once (on SQLite: family logic on the claim board, which runs
 * on every engine in test/store/claims.test.ts; test/support/engines.ts says which runs where).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/keyv.js";
import {
  MAIN_REGISTER,
  RESERVED_REGISTER_NAMES,
  RegisterDirectory,
  registerCliFlags,
  registerDirectoryFor,
  registerKey,
  registerNameSchema,
  registerOfKey,
} from "../../src/store/registers.js";
import { familyEngines } from "../support/engines.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const RUN = randomBytes(4).toString("hex").toUpperCase();
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-registers-"));
const BACKENDS = familyEngines({ sqlite: join(sqliteDir, "kassa.sqlite") });

afterAll(() => rmSync(sqliteDir, { recursive: true, force: true }));

describe("register names", () => {
  it.each(["shop2", "Shop-2", "b", "brand-x-online"])("accepts %s (kept in lower case)", (name) => {
    expect(registerNameSchema.parse(name)).toBe(name.toLowerCase());
  });

  it.each([
    ["", "empty"],
    ["2shop", "a digit first"],
    ["shop_2", "an underscore"],
    ["shop 2", "a space"],
    ["магазин", "not Latin"],
    ["a".repeat(21), "21 characters"],
    ["list", "a sub-command"],
    ["summary", "a sub-command"],
    ["use", "the word that binds a channel"],
    ["today", "a period"],
    ["paid", "a list filter"],
  ])("refuses %j (%s)", (name) => {
    expect(registerNameSchema.safeParse(name).success).toBe(false);
  });

  it("reserves every word Kassa's help and replies put after /invoice", () => {
    const dir = join(import.meta.dirname, "../../src/i18n");
    const words = new Set<string>();
    // "main" is the first register's own name (`/invoice main export`), not a command word.
    for (const file of readdirSync(dir))
      for (const match of readFileSync(join(dir, file), "utf8").matchAll(/\/invoice (\p{L}+)/gu))
        if (match[1] !== "https" && match[1] !== MAIN_REGISTER) words.add(match[1] ?? "");
    expect(words.size).toBeGreaterThan(10);
    expect([...words].filter((word) => !RESERVED_REGISTER_NAMES.has(word))).toEqual([]);
  });

  it("keeps main under the team id and gives every other register its own key", () => {
    expect(registerKey("T1", MAIN_REGISTER)).toBe("T1");
    expect(registerKey("T1", "shop2")).toBe("T1~shop2");
    expect(registerOfKey("T1")).toEqual({ team: "T1", name: "main" });
    expect(registerOfKey("T1~shop2")).toEqual({ team: "T1", name: "shop2" });
    expect(registerKey("T1", "shop2")).not.toBe(registerKey("T1~shop", "2"));
  });
});

describe("register directory (memory board)", () => {
  const directory = () => new RegisterDirectory(async () => memoryClaimBoard());

  it("starts with main only and binds channels to registers it knows", async () => {
    const registers = directory();
    expect(await registers.others("T1")).toEqual([]);
    await registers.addOther("T1", "shop2", "U1");
    await registers.addOther("T1", "brand", "U2");
    await registers.useInChannel("T1", "C1", "shop2");
    await registers.useInChannel("T1", "C2", "brand");
    expect(await registers.others("T1")).toEqual(["brand", "shop2"]);
    expect((await registers.get("T1")).channels).toEqual({ C1: "shop2", C2: "brand" });
    expect((await registers.get("T1")).others.shop2?.by).toBe("U1");
    await registers.useInChannel("T1", "C2", MAIN_REGISTER);
    expect((await registers.get("T1")).channels).toEqual({ C1: "shop2" });
  });

  it("removing a register sends its channels back to main and leaves the others", async () => {
    const registers = directory();
    await registers.addOther("T1", "shop2", "U1");
    await registers.addOther("T1", "brand", "U1");
    await registers.useInChannel("T1", "C1", "shop2");
    await registers.useInChannel("T1", "C2", "brand");
    await registers.removeOther("T1", "shop2");
    expect(await registers.others("T1")).toEqual(["brand"]);
    expect((await registers.get("T1")).channels).toEqual({ C2: "brand" });
  });

  it("keeps a register to chosen channels, forgets that when emptied or removed", async () => {
    const registers = directory();
    await registers.addOther("T1", "shop2", "U1");
    await registers.limitTo("T1", "shop2", ["C1", "C2", "C1"]);
    await registers.limitTo("T1", "main", ["C9"]);
    expect((await registers.get("T1")).limits).toEqual({ shop2: ["C1", "C2"], main: ["C9"] });
    await registers.limitTo("T1", "main", []);
    expect((await registers.get("T1")).limits).toEqual({ shop2: ["C1", "C2"] });
    await registers.removeOther("T1", "shop2");
    expect((await registers.get("T1")).limits).toEqual({});
  });

  it("keeps workspaces apart and forgets one whole", async () => {
    const registers = directory();
    await registers.addOther("T1", "shop2", "U1");
    await registers.addOther("T2", "other", "U1");
    await registers.removeTeam("T1");
    expect(await registers.others("T1")).toEqual([]);
    expect(await registers.others("T2")).toEqual(["other"]);
  });
});

for (const backend of BACKENDS) {
  describe(`register directory on ${backend.name}`, () => {
    it("two replicas adding registers and binding channels at once lose nothing", async () => {
      const [one, two] = await Promise.all([openStore(backend.url ?? ""), openStore(backend.url ?? "")]);
      try {
        const team = `T${RUN}${backend.name}`;
        const [a, b] = [registerDirectoryFor(one, 2000), registerDirectoryFor(two, 2000)];
        await Promise.all([
          ...[1, 2, 3].map((n) => a.addOther(team, `a${n}`, "U1")),
          ...[1, 2, 3].map((n) => b.addOther(team, `b${n}`, "U2")),
          a.useInChannel(team, "C1", "a1"),
          b.useInChannel(team, "C2", "b1"),
        ]);
        expect(await a.others(team)).toEqual(["a1", "a2", "a3", "b1", "b2", "b3"]);
        expect((await b.get(team)).channels).toEqual({ C1: "a1", C2: "b1" });
        await b.removeTeam(team);
        expect(await a.others(team)).toEqual([]);
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    });
  });
}

describe("a register's CLI flags", () => {
  it("name main by its team alone, another by its team and its name (what the operator hint says)", () => {
    expect(registerCliFlags("T0123ABCD")).toBe("--team T0123ABCD");
    expect(registerCliFlags("T0123ABCD~shop2")).toBe("--team T0123ABCD --register shop2");
  });
});
