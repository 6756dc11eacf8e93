// `npm test` after Biome: tsc --noEmit and vitest run side by side. tsc uses one core for some 25 s,
// while vitest leaves the 2-core machine's cores idle for part of its run (files waiting on child
// processes and servers); one after the other, the two took some 20 s longer. A type error stops
// vitest at once and is printed; otherwise tsc's verdict is printed when it ends and the exit code
// is the first failure's. Plain JavaScript, so it runs before anything is compiled.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

const started = performance.now();
const seconds = () => `${Math.round((performance.now() - started) / 1000)} s`;

// npm puts node_modules/.bin on PATH; shell: false keeps the arguments as they are.
const tsc = spawn("tsc", ["--noEmit"], { stdio: ["ignore", "pipe", "pipe"] });
const vitest = spawn("vitest", ["run", ...process.argv.slice(2)], { stdio: "inherit" });

let typeErrors = "";
tsc.stdout.on("data", (chunk) => {
  typeErrors += chunk;
});
tsc.stderr.on("data", (chunk) => {
  typeErrors += chunk;
});

const ended = (child) =>
  new Promise((resolve) => {
    child.on("error", (error) => resolve({ code: 1, error }));
    child.on("exit", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), signal }));
  });

const typesDone = ended(tsc).then((result) => {
  if (result.code === 0) {
    process.stdout.write(`\ntypes: tsc --noEmit found no errors (${seconds()})\n`);
  } else {
    process.stdout.write(`\ntypes: tsc --noEmit failed (${seconds()}); stopping the tests\n`);
    process.stdout.write(typeErrors || `${result.error?.message ?? "tsc could not run"}\n`);
    vitest.kill("SIGTERM");
  }
  return result.code;
});
const testsDone = ended(vitest).then((result) => result.code);

const [types, tests] = await Promise.all([typesDone, testsDone]);
process.exitCode = types !== 0 ? types : tests;
