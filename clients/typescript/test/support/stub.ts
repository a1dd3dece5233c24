import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the stub received. */
export interface Received {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** What the stub answers to one request: a status and a body (an object is sent as JSON); "hang": never answers. */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | "hang";

/**
 * A local HTTP server (node:http, loopback, a free port) that records every request and answers with the
 * replies given, in order (the last one again once they run out).
 */
export class Stub {
  readonly received: Received[] = [];
  readonly #server: Server;
  readonly #replies: Reply[];
  readonly #hanging: ServerResponse[] = [];

  private constructor(replies: Reply[]) {
    this.#replies = replies;
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        const reply = this.#replies.length > 1 ? this.#replies.shift()! : this.#replies[0]!;
        if (reply === "hang") {
          this.#hanging.push(res);
          return;
        }
        const text = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status, {
          ...(typeof reply.body === "string" ? {} : { "Content-Type": "application/json" }),
          ...reply.headers,
        });
        res.end(text);
      });
    });
  }

  static async start(...replies: Reply[]): Promise<Stub> {
    const stub = new Stub(replies.length === 0 ? [{ status: 200, body: {} }] : replies);
    await new Promise<void>((resolve) => stub.#server.listen(0, "127.0.0.1", resolve));
    return stub;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** The only request received (fails if there were others). */
  get one(): Received {
    if (this.received.length !== 1) {
      throw new Error(`expected one request, got ${this.received.length}`);
    }
    return this.received[0]!;
  }

  async close(): Promise<void> {
    for (const res of this.#hanging) {
      res.destroy();
    }
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A sample memory, as the server shows it. */
export function memory(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id, namespace: "team-a", intentId: "i_1", intent: "restart nginx", experience: "systemctl restart nginx",
    parts: ["systemctl restart nginx"], outcome: "success", q: 0, visits: 0,
    createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z", ...extra,
  };
}
