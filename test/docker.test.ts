/**
 * The Docker image, as far as it can be checked without a Docker engine.
 *
 * 1. The Dockerfile and .dockerignore, read as text: stages, base image, user, volume, port, health
 *    check, command, and what each stage installs.
 * 2. The image's steps, replayed with this machine's Node in a temporary "file system" per stage:
 *    the build stage's COPY from the context and its npm steps (`npm ci` is replaced by a copy of the
 *    repository's node_modules: no network, no minute-long native rebuild; npm runs --offline with an
 *    empty cache), then the final stage's COPY --from=build into a fresh folder, which is all the app
 *    gets. From there the operators' CLI connects a cash register, the Dockerfile's CMD starts the app
 *    with the image's ENV, the HEALTHCHECK command passes, a signed /invoice gets its card, and
 *    SIGTERM ends it with exit code 0.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { basename, dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakePayments,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  startFakePayments,
} from "../sandbox/fake-payments.js";
import { signedHeaders } from "../sandbox/sign.js";
import { SANDBOX_TEAM, type SlackStandIn, startSlackStandIn } from "../sandbox/slack.js";
import { SANDBOX_BOT_TOKEN, SANDBOX_CREDENTIALS_KEY, SANDBOX_SIGNING_SECRET } from "../sandbox/stack.js";
import { loadConfig } from "../src/config/index.js";
import { sqlitePath } from "../src/store/keyv.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DOCKERFILE = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const DOCKERIGNORE = readFileSync(join(ROOT, ".dockerignore"), "utf8");
const SUPPORTED_BASE = /^node:(22|24)-bookworm-slim(@sha256:[0-9a-f]{64})?$/;
const DEV_ONLY = ["typescript", "vitest", "@biomejs/biome", "tsx", "node"];
/** The Node line the tests run on: the major of the `node` dev dependency npm scripts use. */
const TESTED_NODE_MAJOR = /\d+/.exec(
  (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    }
  ).devDependencies.node ?? "",
)?.[0];

// ---------------------------------------------------------------------------------------------
// Reading a Dockerfile: enough of the syntax for this one (continuations, comments, flags,
// exec and shell forms). No parser directive other than `# syntax` and no heredocs.

type Instruction = { keyword: string; args: string; line: number };
type Stage = { image: string; name: string | undefined; instructions: Instruction[] };

function parseDockerfile(text: string): Stage[] {
  const instructions: Instruction[] = [];
  let pending = "";
  let start = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    // Comment lines are dropped, also between continued lines; so are empty ones there.
    if (trimmed.startsWith("#") || (trimmed === "" && pending === "")) return;
    if (pending === "") start = index + 1;
    if (trimmed.endsWith("\\")) {
      pending += `${trimmed.slice(0, -1)} `;
      return;
    }
    const full = `${pending}${trimmed}`.trim();
    pending = "";
    if (full === "") return;
    const match = /^(\S+)\s*(.*)$/s.exec(full);
    if (match?.[1]) instructions.push({ keyword: match[1].toUpperCase(), args: match[2] ?? "", line: start });
  });
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const words = splitFlags(instruction.args).rest.split(/\s+/);
      const as = words.findIndex((word) => word.toUpperCase() === "AS");
      stages.push({ image: words[0] ?? "", name: as >= 0 ? words[as + 1] : undefined, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile line ${instruction.line}: ${instruction.keyword} before FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

/** Leading `--name=value` flags of an instruction, and the rest. */
function splitFlags(args: string): { flags: Map<string, string>; rest: string } {
  const flags = new Map<string, string>();
  let rest = args.trim();
  for (;;) {
    const match = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest);
    if (!match) return { flags, rest };
    flags.set(match[1] ?? "", match[2] ?? "");
    rest = rest.slice(match[0].length);
  }
}

type Command = { exec: boolean; argv: string[] };

/** `["node", "x.js"]` (exec form: no shell) or `node x.js` (shell form: /bin/sh -c). */
function parseCommand(text: string): Command {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    const parsed: unknown = JSON.parse(trimmed);
    if (!Array.isArray(parsed) || !parsed.every((part): part is string => typeof part === "string"))
      throw new Error(`not an exec-form command: ${trimmed}`);
    return { exec: true, argv: parsed };
  }
  return { exec: false, argv: ["/bin/sh", "-c", trimmed] };
}

/**
 * Words separated by blanks, as Docker splits ENV and COPY arguments: a word may mix plain text and
 * "…" or '…' quoted parts (KEY="a b"), and the quotes are removed.
 */
function words(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:[^\s"']|"(?:[^"\\]|\\.)*"|'[^']*')+/g)) {
    found.push(
      match[0].replace(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g, (_quoted, double?: string, single?: string) =>
        double !== undefined ? double.replace(/\\(.)/g, "$1") : (single ?? ""),
      ),
    );
  }
  return found;
}

function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of stage.instructions.filter((i) => i.keyword === "ENV")) {
    const parts = words(args);
    if (parts[0] && !parts[0].includes("=")) {
      env[parts[0]] = parts.slice(1).join(" "); // legacy `ENV KEY value`
      continue;
    }
    for (const part of parts) {
      const at = part.indexOf("=");
      env[part.slice(0, at)] = part.slice(at + 1);
    }
  }
  return env;
}

function listOrJson(args: string): string[] {
  return args.trim().startsWith("[") ? parseCommand(args).argv : words(args);
}

const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const last = (stage: Stage, keyword: string) => all(stage, keyword).at(-1);

/** `a && b && c` of a RUN, without its flags (--mount=...). */
function runSteps(instruction: Instruction): string[] {
  return splitFlags(instruction.args)
    .rest.split("&&")
    .map((step) => step.trim().replace(/\s+/g, " "))
    .filter(Boolean);
}

function healthCheck(stage: Stage): Command | undefined {
  const instruction = last(stage, "HEALTHCHECK");
  if (!instruction) return undefined;
  const { rest } = splitFlags(instruction.args);
  const match = /^CMD\s+(.*)$/is.exec(rest);
  return match?.[1] ? parseCommand(match[1]) : undefined;
}

// ---------------------------------------------------------------------------------------------
// .dockerignore, matched as Docker does: paths relative to the context root, `*` within one
// folder, `**` across folders, `!` re-includes, a matching folder excludes what is under it.

function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern.charAt(i);
    if (char === "*" && pattern.charAt(i + 1) === "*") {
      i++;
      if (pattern.charAt(i + 1) === "/") {
        i++;
        source += "(?:.*/)?";
      } else source += ".*";
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

function dockerIgnored(text: string): (path: string) => boolean {
  const rules = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const negate = line.startsWith("!");
      const pattern = posix.normalize(negate ? line.slice(1).trim() : line).replace(/^\/+/, "");
      return { negate, regex: globToRegExp(pattern) };
    });
  return (path) => {
    const parts = posix.normalize(path).split("/");
    let ignored = false;
    for (const rule of rules) {
      if (parts.some((_, index) => rule.regex.test(parts.slice(0, index + 1).join("/"))))
        ignored = !rule.negate;
    }
    return ignored;
  };
}

// ---------------------------------------------------------------------------------------------

const STAGES = parseDockerfile(DOCKERFILE);
const FINAL = STAGES.at(-1) as Stage;
const BUILD_NAME = all(FINAL, "COPY")
  .map((copy) => splitFlags(copy.args).flags.get("from"))
  .find((from) => from !== undefined);
const BUILD = STAGES.find((stage, index) => stage.name === BUILD_NAME || String(index) === BUILD_NAME);
const IMAGE_ENV = envOf(FINAL);
const isIgnored = dockerIgnored(DOCKERIGNORE);

describe("Dockerfile", () => {
  it("has a build stage and a final stage on the same supported Node image (not Node 20)", () => {
    expect(STAGES.length).toBeGreaterThanOrEqual(2);
    for (const stage of STAGES) expect(stage.image).toMatch(SUPPORTED_BASE);
    // One image for both stages, on the Node line the tests run on.
    expect(new Set(STAGES.map((stage) => stage.image)).size).toBe(1);
    expect(TESTED_NODE_MAJOR).toBeDefined();
    expect(FINAL.image.startsWith(`node:${TESTED_NODE_MAJOR}-`)).toBe(true);
    expect(BUILD, "the final stage copies from a named build stage").toBeDefined();
    expect(BUILD).not.toBe(FINAL);
  });

  it("build stage: no compiler, npm ci from the lock file, build, then prune dev dependencies", () => {
    const build = BUILD as Stage;
    const steps = all(build, "RUN").flatMap(runSteps);
    // The SQLite driver ships its binaries: nothing to compile, so no python3, make or g++.
    expect(steps.filter((step) => /^apt-get install\b/.test(step))).toEqual([]);
    const ci = steps.findIndex((step) => /^npm ci\b/.test(step));
    const compile = steps.indexOf("npm run build");
    const prune = steps.findIndex((step) => /^npm prune\b.*--omit=dev\b/.test(step));
    expect(ci, "npm ci").toBeGreaterThanOrEqual(0);
    expect(compile, "npm run build after npm ci").toBeGreaterThan(ci);
    expect(prune, "npm prune --omit=dev after the build").toBeGreaterThan(compile);
    expect(steps[ci]).not.toMatch(/--omit|--production|--only/);

    // Cache-friendly: the package files are copied (and npm ci runs) before any source.
    const order = build.instructions.map((i) => `${i.keyword} ${splitFlags(i.args).rest}`);
    const packageCopy = order.findIndex((line) => /^COPY .*package-lock\.json/.test(line));
    const ciRun = order.findIndex((line) => /^RUN npm ci\b/.test(line));
    const srcCopy = order.findIndex((line) => /^COPY .*\bsrc\b/.test(line));
    expect(packageCopy).toBeGreaterThanOrEqual(0);
    expect(ciRun).toBeGreaterThan(packageCopy);
    expect(srcCopy).toBeGreaterThan(ciRun);
    expect(
      order.some((line) => /^COPY \.\s/.test(line)),
      "no COPY of the whole context",
    ).toBe(false);
  });

  it("reads ENV words as Docker does: quoted parts with blanks, quotes removed", () => {
    expect(words(`A="x y" B=z C='q r'd E="say \\"hi\\""`)).toEqual(["A=x y", "B=z", "C=q rd", 'E=say "hi"']);
  });

  it("final stage: only the build's output, production environment, no package installs", () => {
    expect(IMAGE_ENV.NODE_ENV).toBe("production");
    // Heap sizes for the app (the bench reads the same line); the replay below starts with them.
    const nodeOptions = (IMAGE_ENV.NODE_OPTIONS ?? "").split(" ");
    expect(nodeOptions.every((option) => /^--[a-z-]+=\d+$/.test(option))).toBe(true);
    expect(nodeOptions).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^--max-old-space-size=/),
        expect.stringMatching(/^--max-semi-space-size=/),
      ]),
    );
    const copies = all(FINAL, "COPY").map((copy) => splitFlags(copy.args));
    for (const copy of copies) expect(copy.flags.get("from"), `COPY ${copy.rest}`).toBe(BUILD_NAME);
    const sources = copies.flatMap((copy) =>
      words(copy.rest)
        .slice(0, -1)
        .map((source) => posix.basename(source)),
    );
    expect(sources).toEqual(expect.arrayContaining(["package.json", "node_modules", "dist"]));
    expect(sources).not.toContain("src");
    for (const step of all(FINAL, "RUN").flatMap(runSteps)) {
      if (/^npm (ci|install|i)\b/.test(step)) expect(step).toMatch(/--omit=dev/);
      expect(step).not.toMatch(/apt-get install/);
    }
  });

  it("runs as a non-root user and keeps the SQLite database in the /data volume", () => {
    const user = last(FINAL, "USER")?.args.trim() ?? "root";
    expect(user.split(":")[0]).not.toMatch(/^(root|0)$/);
    // USER comes before the command it applies to.
    const index = (keyword: string) => FINAL.instructions.findIndex((i) => i.keyword === keyword);
    expect(index("USER")).toBeLessThan(index("CMD"));

    const volumes = all(FINAL, "VOLUME").flatMap((volume) => listOrJson(volume.args));
    expect(volumes).toContain("/data");
    expect(IMAGE_ENV.STORE_URL).toMatch(/^sqlite:\/\/\/data\//);
    // Three slashes: an absolute path, whatever the working directory.
    expect(sqlitePath(IMAGE_ENV.STORE_URL ?? "")).toBe("/data/kassa.sqlite");
    // /data is created (and handed to the user) before VOLUME, or a new volume would be root's.
    const prepare = all(FINAL, "RUN").flatMap(runSteps);
    expect(prepare).toContain("mkdir -p /data");
    const chown = FINAL.instructions.findIndex(
      (i) =>
        i.keyword === "RUN" &&
        runSteps(i).some((step) => step.startsWith(`chown ${user.split(":")[0]}`) && step.endsWith(" /data")),
    );
    expect(chown, "chown of /data to the user").toBeGreaterThanOrEqual(0);
    expect(chown).toBeLessThan(index("VOLUME"));
  });

  it("exposes the port the app listens on with the image's environment", () => {
    const config = loadConfig(IMAGE_ENV, { requireSlack: false });
    const exposed = all(FINAL, "EXPOSE").flatMap((expose) =>
      words(expose.args).map((port) => port.split("/")[0]),
    );
    expect(exposed).toContain(String(config.port));
    expect(config.port).toBe(3000);
    expect(config.store.url).toBe(IMAGE_ENV.STORE_URL);
  });

  it("checks its health on /healthz with Node (slim images have no curl)", () => {
    const check = healthCheck(FINAL);
    expect(check?.argv[0]).toBe("node");
    expect(check?.argv.join(" ")).toContain("/healthz");
    expect(check?.argv.join(" ")).not.toMatch(/\b(curl|wget)\b/);
  });

  it("starts with node as PID 1 (exec form, no shell, no npm) so it gets SIGTERM", () => {
    expect(last(FINAL, "ENTRYPOINT")).toBeUndefined();
    const cmd = parseCommand(last(FINAL, "CMD")?.args ?? "");
    expect(cmd).toEqual({ exec: true, argv: ["node", "dist/index.js"] });
    const stop = last(FINAL, "STOPSIGNAL")?.args.trim();
    if (stop !== undefined) expect(stop).toBe("SIGTERM");
  });
});

describe(".dockerignore", () => {
  it("keeps dependencies, build output, data, secrets and tests out of the build context", () => {
    for (const path of [
      "node_modules",
      "node_modules/better-sqlite3/prebuilds/linux-x64.node",
      "dist/index.js",
      "data",
      "data/kassa.sqlite",
      "kassa.sqlite",
      "kassa.sqlite-wal",
      "kassa.sqlite.key",
      "src/stray.sqlite",
      ".env",
      ".git/config",
      "coverage/index.html",
      "test/docker.test.ts",
      "sandbox/slack.ts",
      "scripts/demo.ts",
    ])
      expect(isIgnored(path), path).toBe(true);
  });

  it("keeps every file the Dockerfile copies from the context", () => {
    for (const stage of STAGES)
      for (const copy of all(stage, "COPY").map((i) => splitFlags(i.args)))
        if (!copy.flags.has("from"))
          for (const source of words(copy.rest).slice(0, -1)) expect(isIgnored(source), source).toBe(false);
    for (const path of ["package.json", "package-lock.json", "tsconfig.json", "src/index.ts", "src/cli.ts"])
      expect(isIgnored(path), path).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Replaying the stages.

type Result = { code: number | null; stdout: string; stderr: string };

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<Result> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** The environment npm sees in the build stage: no npm/vitest settings from this process, offline. */
function npmEnv(cache: string, stageEnv: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^(npm_|NODE_ENV$|NODE_OPTIONS$|VITEST)/i.test(key)) env[key] = value;
  return {
    ...env,
    ...stageEnv,
    npm_config_offline: "true",
    npm_config_cache: cache,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
}

/** A stage's file system under `root`: container paths map to root + path. */
class StageFs {
  cwd = "/";
  constructor(readonly root: string) {}
  host(path: string): string {
    return join(this.root, posix.resolve(this.cwd, path));
  }
}

/** COPY from the build context (the repository), skipping what .dockerignore leaves out. */
function copyFromContext(fs: StageFs, args: string): void {
  const parts = words(args);
  const dest = parts.at(-1) ?? ".";
  const sources = parts.slice(0, -1).flatMap((source) => {
    if (!source.includes("*")) return [source];
    const folder = posix.dirname(source);
    const name = globToRegExp(posix.basename(source));
    return readdirSync(join(ROOT, folder))
      .filter((entry) => name.test(entry))
      .map((entry) => posix.join(folder, entry));
  });
  const intoFolder = dest.endsWith("/") || sources.length > 1;
  for (const source of sources) {
    if (isIgnored(source)) throw new Error(`COPY ${source}: left out of the build context by .dockerignore`);
    const from = join(ROOT, source);
    // A folder's contents go to dest; a file goes into dest/ or becomes dest.
    const to =
      statSync(from).isDirectory() || !intoFolder ? fs.host(dest) : join(fs.host(dest), basename(source));
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to, {
      recursive: true,
      filter: (path) => !isIgnored(relative(ROOT, path).split("\\").join("/")),
    });
  }
}

/**
 * The build stage, step by step. `npm ci` becomes a copy of the repository's node_modules (same lock
 * file, nothing compiled); other npm steps run as written, offline with an
 * empty cache; apt-get steps are the image's system packages and are skipped. Anything else fails
 * the test, so a new step gets looked at here.
 */
async function replayBuildStage(stage: Stage, root: string, cache: string): Promise<StageFs> {
  const fs = new StageFs(root);
  const env: Record<string, string> = {};
  for (const instruction of stage.instructions) {
    switch (instruction.keyword) {
      case "WORKDIR":
        fs.cwd = posix.resolve(fs.cwd, instruction.args.trim());
        mkdirSync(fs.host("."), { recursive: true });
        break;
      case "ENV":
        Object.assign(env, envOf({ image: "", name: undefined, instructions: [instruction] }));
        break;
      case "COPY":
        if (splitFlags(instruction.args).flags.has("from")) throw new Error("COPY --from in the build stage");
        copyFromContext(fs, splitFlags(instruction.args).rest);
        break;
      case "RUN":
        for (const step of runSteps(instruction)) {
          if (/^(apt-get\b|rm -rf \/var\/lib\/apt\/lists)/.test(step)) continue;
          if (/^npm ci\b/.test(step)) {
            // cp -a keeps .bin's relative symlinks as they are, and is several times faster than fs.cpSync.
            const copy = await run("cp", ["-a", join(ROOT, "node_modules"), fs.host("node_modules")], {
              cwd: ROOT,
              env: { PATH: process.env.PATH ?? "" },
            });
            if (copy.code !== 0) throw new Error(`cp -a node_modules exited ${copy.code}: ${copy.stderr}`);
            continue;
          }
          if (!/^npm /.test(step))
            throw new Error(`test/docker.test.ts cannot replay the build step "${step}"`);
          const result = await run("npm", step.split(" ").slice(1), {
            cwd: fs.host("."),
            env: npmEnv(cache, env),
            // `npm run build` is tsc over the app (some 30 s alone); beside three other files on a
            // loaded 2-core machine it once took longer than 90 s.
            timeoutMs: 240_000,
          });
          if (result.code !== 0)
            throw new Error(`${step} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
        }
        break;
    }
  }
  return fs;
}

/** The final stage: only what it copies from the build stage. Its RUN steps need root and are not replayed. */
function assembleFinalStage(stage: Stage, build: StageFs, root: string): StageFs {
  const fs = new StageFs(root);
  for (const instruction of stage.instructions) {
    if (instruction.keyword === "WORKDIR") {
      fs.cwd = posix.resolve(fs.cwd, instruction.args.trim());
      mkdirSync(fs.host("."), { recursive: true });
    }
    if (instruction.keyword !== "COPY") continue;
    const { flags, rest } = splitFlags(instruction.args);
    if (!flags.has("from")) {
      copyFromContext(fs, rest);
      continue;
    }
    const parts = words(rest);
    const dest = parts.at(-1) ?? ".";
    for (const source of parts.slice(0, -1)) {
      const from = build.host(source);
      const to = dest.endsWith("/") ? join(fs.host(dest), posix.basename(source)) : fs.host(dest);
      mkdirSync(dirname(to), { recursive: true });
      if (existsSync(to)) throw new Error(`COPY --from: ${dest} exists already`);
      renameSync(from, to); // a move: node_modules is large and the build folder is thrown away
    }
  }
  return fs;
}

/** Stderr lines other than Node's deprecation or experimental warnings (these vary with the Node version). */
function problems(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => !/(Deprecation|Experimental)Warning|--trace-(deprecation|warnings)/.test(line));
}

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

function nonLoopbackIPv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address?.family === "IPv4" && !address.internal)?.address;
}

describe("the image's stages, replayed with this machine's Node", () => {
  let temp: string;
  let app: StageFs;
  let data: string;
  let slack: SlackStandIn;
  let fake: FakePayments;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), "kassa-docker-"));
    data = join(temp, "data");
    mkdirSync(data);
    [slack, fake] = await Promise.all([startSlackStandIn(), startFakePayments()]);
    const build = await replayBuildStage(BUILD as Stage, join(temp, "build"), join(temp, "npm-cache"));
    app = assembleFinalStage(FINAL, build, join(temp, "final"));
    rmSync(build.root, { recursive: true, force: true });
  }, 300_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    await Promise.allSettled([slack?.close(), fake?.close()]);
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it("holds package.json, the compiled app and production dependencies only", () => {
    const workdir = app.host(".");
    expect(readdirSync(workdir).sort()).toEqual(["dist", "node_modules", "package.json"]);
    expect(existsSync(join(workdir, "dist/index.js"))).toBe(true);
    expect(existsSync(join(workdir, "dist/cli.js"))).toBe(true);
    // Only src is compiled: no tests, sandbox or scripts in the image.
    expect(filesUnder(join(workdir, "dist")).some((path) => /^(test|sandbox|scripts|src)\b/.test(path))).toBe(
      false,
    );

    const modules = join(workdir, "node_modules");
    for (const name of DEV_ONLY) expect(existsSync(join(modules, name)), name).toBe(false);
    expect(existsSync(join(modules, ".bin/tsc"))).toBe(false);
    // Against the lock file: every dev-only package gone, every production one there.
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean }>;
    };
    const entries = Object.entries(lock.packages).filter(([path]) => path.startsWith("node_modules/"));
    const devLeft = entries.filter(([path, entry]) => entry.dev && existsSync(join(workdir, path)));
    const prodMissing = entries.filter(
      ([path, entry]) =>
        !entry.dev && !entry.optional && !entry.devOptional && !existsSync(join(workdir, path)),
    );
    expect(devLeft.map(([path]) => path)).toEqual([]);
    expect(prodMissing.map(([path]) => path)).toEqual([]);
    // The SQLite driver's own prebuilt binary, nothing compiled.
    expect(
      existsSync(join(modules, `better-sqlite3/prebuilds/${process.platform}-${process.arch}.node`)),
    ).toBe(true);
    expect(existsSync(join(modules, "better-sqlite3/build"))).toBe(false);
  });

  it("connects a cash register with the CLI, serves /invoice with the image's CMD, passes its health check and stops on SIGTERM", async () => {
    const workdir = app.host(".");
    const filesBefore = filesUnder(workdir);
    const node = (argv: string[]) => (argv[0] === "node" ? [process.execPath, ...argv.slice(1)] : argv);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      ...IMAGE_ENV,
      // What `docker run -e ...` and the volume provide; PORT 0 picks a free port.
      PORT: "0",
      STORE_URL: `sqlite://${join(data, "kassa.sqlite")}`,
      SLACK_SIGNING_SECRET: SANDBOX_SIGNING_SECRET,
      SLACK_BOT_TOKEN: SANDBOX_BOT_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      PAYMENTS_API_URL: fake.url,
      CREDENTIALS_KEY: SANDBOX_CREDENTIALS_KEY,
    };
    expect(env.STORE_URL).toMatch(/^sqlite:\/\/\//);

    // `docker exec <container> node dist/cli.js credentials set ... --secret -`
    const cli = await run(
      process.execPath,
      [
        "dist/cli.js",
        "credentials",
        "set",
        "--team",
        SANDBOX_TEAM.id,
        "--login",
        SANDBOX_LOGIN,
        "--secret",
        "-",
      ],
      { cwd: workdir, env, input: SANDBOX_SECRET },
    );
    expect(problems(cli.stderr)).toEqual([]);
    expect(cli.stdout).toContain(`Connected ${SANDBOX_TEAM.id} to cash register "${SANDBOX_LOGIN}"`);
    expect(cli.code).toBe(0);

    const [command, ...args] = node(parseCommand(last(FINAL, "CMD")?.args ?? "").argv);
    const child = spawn(command ?? "", args, { cwd: workdir, env, stdio: ["ignore", "pipe", "pipe"] });
    server = child;
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on("exit", (code, signal) => done({ code, signal })),
    );
    const listening = await new Promise<Record<string, unknown>>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`no "listening" log line in 20 s:\n${stdout}\n${stderr}`)),
        20_000,
      );
      child.stdout.on("data", (chunk) => {
        stdout += String(chunk);
        // Complete lines only: the last piece may still be on its way.
        for (const line of stdout.split("\n").slice(0, -1)) {
          if (!line.startsWith("{")) continue;
          const entry = JSON.parse(line) as Record<string, unknown>;
          if (typeof entry.msg === "string" && entry.msg.startsWith("Kassa is listening")) {
            clearTimeout(timer);
            done(entry);
          }
        }
      });
      void exited.then(({ code }) =>
        fail(new Error(`exited ${code} before listening:\n${stdout}\n${stderr}`)),
      );
    });
    const port = listening.port as number;
    expect(port).toBeGreaterThan(0);
    expect(listening.store).toBe(join(data, "kassa.sqlite"));
    const base = `http://127.0.0.1:${port}`;

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    // Listening on every interface, not only loopback (docker run -p reaches it through eth0).
    const outside = nonLoopbackIPv4();
    if (outside) expect((await fetch(`http://${outside}:${port}/healthz`)).status).toBe(200);

    // The Dockerfile's HEALTHCHECK command, as Docker runs it inside the container.
    const check = healthCheck(FINAL);
    const [checkCommand, ...checkArgs] = node(check?.argv ?? []);
    const healthEnv = { ...env, PORT: String(port) };
    expect(
      (await run(checkCommand ?? "", checkArgs, { cwd: workdir, env: healthEnv, timeoutMs: 10_000 })).code,
    ).toBe(0);

    // A signed /invoice, as Slack sends it.
    const form = new URLSearchParams({
      token: "deprecated-verification-token",
      team_id: SANDBOX_TEAM.id,
      team_domain: SANDBOX_TEAM.domain,
      channel_id: "C0FINANCE",
      channel_name: "finance",
      user_id: "U0FINANCE1",
      user_name: "alex",
      command: "/invoice",
      text: "715308958_rPwTzvsvCm",
      api_app_id: "A0KASSA",
      is_enterprise_install: "false",
      response_url: slack.responseUrl("docker-invoice"),
      trigger_id: "1.trigger",
    }).toString();
    // The card is posted in the channel with chat.postMessage (a live card).
    slack.routeChannel("C0FINANCE", "docker-invoice");
    const ack = await fetch(`${base}/slack/events`, {
      method: "POST",
      headers: signedHeaders(SANDBOX_SIGNING_SECRET, form),
      body: form,
    });
    expect(ack.status).toBe(200);
    const reply = (await slack.waitForReply("docker-invoice")).body as {
      response_type?: string;
      text?: string;
    };
    expect(reply.response_type).toBe("in_channel");
    expect(reply.text).toContain("Invoice 715308958_rPwTzvsvCm: Not paid");
    // The server decrypted what the CLI stored.
    expect(fake.requests.at(-1)?.body).toMatchObject({
      auth_login: SANDBOX_LOGIN,
      auth_secret: SANDBOX_SECRET,
    });

    // `docker stop`: SIGTERM to PID 1, SIGKILL after 10 s.
    const stopping = performance.now();
    child.kill("SIGTERM");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - stopping).toBeLessThan(10_000);
    expect(stdout).toContain('"msg":"stopping: no new requests; finishing replies under way"');
    expect(problems(stderr)).toEqual([]);
    // The health check fails once the app is gone.
    expect(
      (await run(checkCommand ?? "", checkArgs, { cwd: workdir, env: healthEnv, timeoutMs: 10_000 })).code,
    ).toBe(1);

    // Everything was written to the data volume; the app folder (root's, read-only in the image) is unchanged.
    expect(filesUnder(workdir)).toEqual(filesBefore);
    expect(readdirSync(data)).toContain("kassa.sqlite");
  }, 60_000);
});
