import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHttpFetch,
  type HttpFetch,
  RedirectError,
  ResponseTooLargeError,
  UnreadableBodyError,
} from "../../src/payments/http-fetch.js";
import { closedPort } from "../support/ports.js";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

type Recorded = {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  socket: Socket;
};

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real local server; every request it got is recorded with the socket it came on. */
async function serve(
  handler: Handler,
  server: Server | HttpsServer = createServer(),
): Promise<{ url: string; seen: Recorded[] }> {
  const seen: Recorded[] = [];
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body,
        socket: req.socket,
      });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const protocol = "setSecureContext" in server ? "https" : "http";
  return { url: `${protocol}://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
}

function transport(options: Parameters<typeof createHttpFetch>[0] = {}): HttpFetch {
  const fetch = createHttpFetch(options);
  cleanups.push(() => fetch.close());
  return fetch;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

const json = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body);
};

describe("createHttpFetch: requests and answers", () => {
  it("sends the method, headers and body, and answers status, headers and body as a Response", async () => {
    const { url, seen } = await serve((_req, body, res) =>
      json(res, 201, `{"echo":${JSON.stringify(body)},"text":"Привет"}`, { "x-request-id": "r-1" }),
    );
    const response = await transport()(`${url}v2/invoice/info/`, {
      method: "POST",
      headers: new Headers({ "content-type": "application/json", accept: "application/json" }),
      body: '{"id":"42","note":"ünïcode"}',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get("x-request-id")).toBe("r-1");
    expect(await response.json()).toEqual({ echo: '{"id":"42","note":"ünïcode"}', text: "Привет" });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe("POST");
    expect(seen[0]?.url).toBe("/v2/invoice/info/");
    expect(seen[0]?.headers["content-type"]).toBe("application/json");
    expect(seen[0]?.headers["content-length"]).toBe(
      String(Buffer.byteLength('{"id":"42","note":"ünïcode"}')),
    );
  });

  it("answers error statuses as Responses (ofetch decides what they mean)", async () => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>502 Bad Gateway</body></html>");
    });
    const response = await transport()(url, { method: "POST", body: "{}" });
    expect(response.status).toBe(502);
    expect(response.ok).toBe(false);
    expect(await response.text()).toContain("502 Bad Gateway");
  });

  it("gives a 204 no body", async () => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(204);
      res.end();
    });
    const response = await transport()(url);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("keeps connections open between calls", async () => {
    const { url, seen } = await serve((_req, _body, res) => json(res, 200, "{}"));
    const fetch = transport();
    for (let index = 0; index < 6; index += 1)
      await (await fetch(url, { method: "POST", body: "{}" })).text();
    expect(seen).toHaveLength(6);
    // undici frees a connection just after its answer is read, so calls one after the other
    // alternate between two.
    expect(new Set(seen.map((request) => request.socket)).size).toBeLessThanOrEqual(2);
  });

  it("closes an idle connection after idleTimeoutMs, and opens a new one for the next call", async () => {
    const { url, seen } = await serve((_req, _body, res) => json(res, 200, "{}"));
    const fetch = transport({ idleTimeoutMs: 100 });
    await (await fetch(url)).text();
    const first = seen[0]?.socket;
    await new Promise((resolve) => first?.once("close", resolve));
    await (await fetch(url)).text();
    expect(seen[1]?.socket).not.toBe(first);
  });

  it("does not cut a slow answer at idleTimeoutMs: only the signal bounds a call", async () => {
    const { url } = await serve((_req, _body, res) => setTimeout(() => json(res, 200, '{"slow":true}'), 300));
    const response = await transport({ idleTimeoutMs: 100 })(url, { signal: AbortSignal.timeout(2000) });
    expect(await response.json()).toEqual({ slow: true });
  });

  it("reads gzip, deflate (wrapped and raw) and brotli answers, and asks for them", async () => {
    const body = JSON.stringify({ methods: "x".repeat(5000) });
    const encoders: Record<string, (input: string) => Buffer> = {
      gzip: (input) => zlib.gzipSync(input),
      deflate: (input) => zlib.deflateSync(input),
      "deflate-raw": (input) => zlib.deflateRawSync(input),
      br: (input) => zlib.brotliCompressSync(input),
    };
    const { url, seen } = await serve((req, _body, res) => {
      const name = req.url?.slice(1) ?? "";
      const encode = encoders[name];
      if (!encode) return json(res, 404, "{}");
      res.writeHead(200, { "content-encoding": name === "deflate-raw" ? "deflate" : name });
      res.end(encode(body));
    });
    const fetch = transport();
    for (const name of Object.keys(encoders)) {
      expect(await (await fetch(`${url}${name}`)).text(), name).toBe(body);
    }
    expect(seen[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("refuses an encoding it cannot read", async () => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200, { "content-encoding": "zstd" });
      res.end("not really zstd");
    });
    const error = await rejection(transport()(url));
    expect(error).toBeInstanceOf(UnreadableBodyError);
    expect(error.message).toContain("zstd");
  });
});

describe("createHttpFetch: what it refuses", () => {
  it("rejects a redirect with its status and target instead of following it", async () => {
    const { url, seen } = await serve((_req, _body, res) => {
      res.writeHead(301, { location: "https://api.example/v2/invoice/info/" });
      res.end();
    });
    const error = await rejection(transport()(url, { method: "POST", body: "{}" }));
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).status).toBe(301);
    expect(error.message).toBe("answered HTTP 301 redirecting to https://api.example/v2/invoice/info/");
    expect(seen).toHaveLength(1);
  });

  it("stops reading an answer over maxResponseBytes", async () => {
    const { url } = await serve((_req, _body, res) => json(res, 200, `"${"x".repeat(10_000)}"`));
    const error = await rejection(transport({ maxResponseBytes: 4096 })(url));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toBe("the answer is larger than 4096 bytes");
  });

  it("stops decompressing past maxResponseBytes (a small gzip of a huge answer)", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(bomb);
    });
    const error = await rejection(transport({ maxResponseBytes: 1024 * 1024 })(url));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toContain("once decompressed");
  });

  it("rejects other protocols and bodies that are not strings, without a request", async () => {
    const fetch = transport();
    expect(await rejection(fetch("ftp://127.0.0.1/file"))).toBeInstanceOf(TypeError);
    const { url, seen } = await serve((_req, _body, res) => json(res, 200, "{}"));
    expect(
      await rejection(fetch(url, { method: "POST", body: new URLSearchParams({ a: "1" }) })),
    ).toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(0);
  });
});

describe("createHttpFetch: time-outs and broken connections", () => {
  it("rejects with the signal's TimeoutError when no headers come in time, and closes the connection", async () => {
    let closed = false;
    const { url } = await serve((req) => req.socket.on("close", () => (closed = true)));
    const started = performance.now();
    const error = await rejection(transport()(url, { signal: AbortSignal.timeout(150) }));
    expect(error.name).toBe("TimeoutError");
    expect(performance.now() - started).toBeLessThan(1500);
    await expect.poll(() => closed).toBe(true);
  });

  it("rejects with the TimeoutError when the body stalls after the headers", async () => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"error":false,');
    });
    const error = await rejection(transport()(url, { signal: AbortSignal.timeout(150) }));
    expect(error.name).toBe("TimeoutError");
  });

  it("rejects with a TimeoutError after its own timeoutMs, headers not yet come or body stalled", async () => {
    const { url } = await serve((req, _body, res) => {
      if (req.url === "/stall-body") {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        res.write('{"error":false,');
      }
    });
    const fetch = transport({ timeoutMs: 150 });
    for (const path of ["no-headers", "stall-body"]) {
      const started = performance.now();
      const error = await rejection(fetch(`${url}${path}`));
      expect(error.name, path).toBe("TimeoutError");
      expect(error.message).toBe("The operation was aborted due to timeout");
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect(performance.now() - started).toBeLessThan(1500);
    }
  });

  it("cuts an answer that trickles in for longer than timeoutMs, each piece in time", async () => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      const trickle = setInterval(() => res.write(" "), 40);
      res.on("close", () => clearInterval(trickle));
    });
    const started = performance.now();
    const error = await rejection(transport({ timeoutMs: 300 })(url));
    expect(error.name).toBe("TimeoutError");
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("gives each call its own timeoutMs", async () => {
    const { url } = await serve((_req, _body, res) => setTimeout(() => json(res, 200, '{"ok":true}'), 100));
    // A wide margin for each call (100 ms of a 600 ms time-out) on a loaded machine.
    const fetch = transport({ timeoutMs: 600 });
    // Seven calls one after the other take longer than one time-out in all, each within its own.
    for (let index = 0; index < 7; index += 1) {
      const response = await fetch(url);
      expect(await response.json()).toEqual({ ok: true });
    }
  });

  it("rejects at once when the signal is already aborted, without a request", async () => {
    const { url, seen } = await serve((_req, _body, res) => json(res, 200, "{}"));
    const controller = new AbortController();
    controller.abort(new DOMException("stop", "AbortError"));
    const error = await rejection(transport()(url, { signal: controller.signal }));
    expect(error.name).toBe("AbortError");
    expect(seen).toHaveLength(0);
  });

  it("rejects when the connection closes in the middle of the body", async () => {
    const { url } = await serve((req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"error":false,', () => req.socket.destroy());
    });
    const error = await rejection(transport()(url, { signal: AbortSignal.timeout(2000) }));
    expect(error.name).not.toBe("TimeoutError");
    expect(error.message).toMatch(/closed|aborted|socket hang up|ECONNRESET/);
  });

  it("rejects with the network error when nothing listens", async () => {
    const error = await rejection(transport()(`http://127.0.0.1:${await closedPort()}/`));
    expect((error as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
  });
});

describe("createHttpFetch: https", () => {
  // A throw-away self-signed certificate for 127.0.0.1, made with the openssl command line.
  let certificate: { key: string; cert: string } | undefined;
  try {
    const dir = mkdtempSync(join(tmpdir(), "kassa-tls-"));
    execFileSync(
      "openssl",
      [
        ...[
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-days",
          "1",
        ],
        ...["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      ],
      { stdio: "ignore" },
    );
    certificate = {
      key: readFileSync(join(dir, "key.pem"), "utf8"),
      cert: readFileSync(join(dir, "cert.pem"), "utf8"),
    };
    rmSync(dir, { recursive: true, force: true });
  } catch {
    console.warn("https tests skipped: the openssl command could not make a test certificate");
  }

  it.skipIf(!certificate)("talks https to a server whose certificate it trusts", async () => {
    if (!certificate) return;
    const { url, seen } = await serve(
      (_req, body, res) => json(res, 200, body),
      createHttpsServer(certificate),
    );
    expect(url.startsWith("https://")).toBe(true);
    const fetch = transport({ ca: certificate.cert });
    const response = await fetch(url, { method: "POST", body: '{"id":"1"}' });
    expect(await response.json()).toEqual({ id: "1" });
    for (let index = 0; index < 3; index += 1)
      await (await fetch(url, { method: "POST", body: "{}" })).text();
    expect(new Set(seen.map((request) => request.socket)).size).toBeLessThanOrEqual(2);
  });

  it.skipIf(!certificate)("refuses a certificate it does not trust", async () => {
    if (!certificate) return;
    const { url, seen } = await serve(
      (_req, body, res) => json(res, 200, body),
      createHttpsServer(certificate),
    );
    const error = await rejection(transport()(url));
    expect((error as NodeJS.ErrnoException).code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
    expect(seen).toHaveLength(0);
  });
});

describe("createHttpFetch: what the time-out counts", () => {
  it("starts when a request has a connection, not while it waits behind maxSockets", async () => {
    const { url } = await serve((_req, _body, res) => setTimeout(() => json(res, 200, '{"ok":true}'), 100));
    // One connection, six requests of 100 ms each: the sixth is sent after ~500 ms of waiting, past
    // the 400 ms time-out if waiting counted; each has 300 ms to spare once sent.
    const fetch = transport({ timeoutMs: 400, maxSockets: 1 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(url)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it("refuses a body that claims gzip but is not: UnreadableBodyError, not a network failure", async () => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end("this is not gzip");
    });
    const error = await rejection(transport()(url));
    expect(error).toBeInstanceOf(UnreadableBodyError);
    expect(error.message).toContain("gzip");
  });
});
