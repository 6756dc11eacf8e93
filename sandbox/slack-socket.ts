import type { Server } from "node:http";
import { type WebSocket, WebSocketServer } from "ws";

/** What Slack sends over Socket Mode: a slash command, an interaction or an event, in an envelope. */
export type SocketEnvelope = {
  envelope_id: string;
  type: string;
  payload: unknown;
  accepts_response_payload?: boolean;
};

/**
 * The stand-in's Socket Mode: a WebSocket endpoint on the stand-in's server (apps.connections.open
 * hands out its URL) that greets like Slack, sends envelopes to every connection and records the
 * app's acknowledgements.
 */
export class SlackSocketMode {
  private readonly connections = new Set<WebSocket>();
  private readonly acks: Array<Record<string, unknown>> = [];
  private readonly ackWaiters: Array<() => void> = [];
  private readonly wss = new WebSocketServer({ noServer: true });

  constructor(server: Server) {
    server.on("upgrade", (req, socket, head) => {
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        this.connections.add(ws);
        ws.on("close", () => this.connections.delete(ws));
        ws.on("message", (data) => {
          try {
            this.acks.push(JSON.parse(String(data)) as Record<string, unknown>);
            for (const wake of this.ackWaiters.splice(0)) wake();
          } catch {}
        });
        ws.send(
          JSON.stringify({ type: "hello", num_connections: 1, connection_info: { app_id: "A0KASSA" } }),
        );
      });
    });
  }

  /** Open connections. */
  get size(): number {
    return this.connections.size;
  }

  /** Sends an envelope to every connection. */
  send(envelope: SocketEnvelope): void {
    for (const ws of this.connections) ws.send(JSON.stringify(envelope));
  }

  /** Resolves with the app's acknowledgement of an envelope. */
  waitForAck(envelopeId: string, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ack for envelope ${envelopeId}`)), timeoutMs);
      const check = () => {
        const found = this.acks.find((ack) => ack.envelope_id === envelopeId);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else this.ackWaiters.push(check);
      };
      check();
    });
  }

  /** Drops every connection and stops taking new ones. */
  close(): void {
    for (const ws of this.connections) ws.terminate();
    this.wss.close();
  }
}
