/**
 * CPU per payment-service call: Kassa's transport (src/payments/http-fetch.ts, undici's `request`)
 * against the built-in fetch, under ofetch as the client calls it (`--layer transport`: the transport
 * alone). The service is a node:http server in a child process answering the fake's invoice JSON, so
 * process.cpuUsage() counts the client only. Per transport, after a warm-up: N sequential calls, then
 * N calls with C in flight; repeats alternate the transports. Figures: docs/benchmarks.md.
 *
 *   npx tsx scripts/bench/transport/index.ts [--n 20000] [--concurrency 50] [--repeats 2]
 *     [--warmup 5000] [--layer ofetch|transport] [--transports kassa,fetch]
 */
import { fork } from "node:child_process";
import { parseArgs } from "node:util";
import { createFetch } from "ofetch";
import { startFakePayments } from "../../../sandbox/fake-payments.js";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "../../../sandbox/payments-samples.js";
import { createHttpFetch } from "../../../src/payments/http-fetch.js";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "50" },
    repeats: { type: "string", default: "2" },
    warmup: { type: "string", default: "5000" },
    layer: { type: "string", default: "ofetch" },
    transports: { type: "string", default: "kassa,fetch" },
    child: { type: "boolean", default: false },
  },
});

if (values.child) {
  // The service: answers every POST with the same invoice JSON.
  const http = await import("node:http");
  const answer = process.env.ANSWER ?? "{}";
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(answer),
      });
      res.end(answer);
    });
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    process.send?.(typeof address === "object" && address ? address.port : 0);
  });
} else {
  await main();
}

async function main(): Promise<void> {
  const n = Number(values.n);
  const concurrency = Number(values.concurrency);
  const body = { auth_login: SANDBOX_LOGIN, auth_secret: SANDBOX_SECRET, id: "715308958_rPwTzvsvCm" };
  const fake = await startFakePayments();
  const answer = await (
    await fetch(`${fake.url}v2/invoice/info/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  ).text();
  await fake.close();
  const child = fork(new URL(import.meta.url).pathname, ["--child"], {
    env: { ...process.env, ANSWER: answer },
    execArgv: process.execArgv,
  });
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(m as number)));
  const url = `http://127.0.0.1:${port}/v2/invoice/info/`;
  process.stdout.write(
    `Node ${process.version}, answer ${Buffer.byteLength(answer)} bytes, layer ${values.layer}\n`,
  );

  const makers: Record<string, () => { call: () => Promise<unknown>; close: () => void }> = {
    kassa: () => layered(createHttpFetch({ timeoutMs: 8000 })),
    fetch: () => layered(Object.assign(fetch, { close() {} })),
  };
  function layered(transport: typeof fetch & { close(): void }) {
    if (values.layer === "transport") {
      const headers = new Headers({ "content-type": "application/json", accept: "application/json" });
      const text = JSON.stringify(body);
      return {
        call: async () => (await transport(url, { method: "POST", headers, body: text })).text(),
        close: () => transport.close(),
      };
    }
    const ofetch = createFetch({ fetch: transport });
    return {
      call: () =>
        ofetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body,
          responseType: "text",
          retry: false,
        }),
      close: () => transport.close(),
    };
  }

  const names = (values.transports ?? "").split(",");
  for (let repeat = 1; repeat <= Number(values.repeats); repeat += 1) {
    for (const name of names) {
      const maker = makers[name];
      if (!maker) throw new Error(`unknown transport ${name}`);
      const { call, close } = maker();
      await run(call, Number(values.warmup), concurrency);
      const sequential = await run(call, n, 1);
      const concurrent = await run(call, n, concurrency);
      close();
      process.stdout.write(
        `${repeat} ${name.padEnd(9)} sequential ${sequential.cpuUs.toFixed(1)} µs/call (${sequential.rate.toFixed(0)}/s)` +
          `  concurrent-${concurrency} ${concurrent.cpuUs.toFixed(1)} µs/call (${concurrent.rate.toFixed(0)}/s)\n`,
      );
    }
  }
  child.kill();
}

async function run(call: () => Promise<unknown>, n: number, concurrency: number) {
  let left = n;
  const worker = async () => {
    while (left > 0) {
      left -= 1;
      await call();
    }
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / n, rate: n / seconds };
}
