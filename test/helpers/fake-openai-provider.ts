import { createServer, type IncomingMessage } from "node:http";

/**
 * A local stand-in for one OpenAI-compatible provider: each chat-completions request gets the
 * next canned answer (a JSON completion, or SSE chunks when the client asked to stream) and its
 * body is kept, so a test sees exactly what the real client sent and how it read the answer.
 */
export interface FakeProvider {
  /** Base URL for the client, ending in `/v1`. */
  url: string;
  /** Request bodies, in arrival order. */
  bodies: Array<Record<string, unknown>>;
  /** Queues answers; a request with none queued gets a plain "ok". */
  answer(...answers: FakeAnswer[]): void;
  close(): Promise<void>;
}

export interface FakeAnswer {
  /** The assistant message of a whole answer (provider fields included). */
  message?: Record<string, unknown>;
  /** The deltas of a streamed answer, one SSE chunk each. */
  deltas?: Array<Record<string, unknown>>;
  finish_reason?: string;
}

const USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

export async function startFakeProvider(): Promise<FakeProvider> {
  const bodies: Array<Record<string, unknown>> = [];
  const queue: FakeAnswer[] = [];
  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      bodies.push(body);
      const answer = queue.shift() ?? { message: { role: "assistant", content: "ok" } };
      const finish = answer.finish_reason ?? "stop";
      if (body.stream !== true) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "chatcmpl-fake",
            object: "chat.completion",
            created: 1,
            model: String(body.model),
            choices: [
              {
                index: 0,
                message: answer.message ?? { role: "assistant", content: "" },
                finish_reason: finish,
              },
            ],
            usage: USAGE,
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const deltas = answer.deltas ?? [{ role: "assistant", content: "ok" }];
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1, model: String(body.model), choices, ...extra })}\n\n`;
      for (const delta of deltas) res.write(chunk([{ index: 0, delta, finish_reason: null }]));
      res.write(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
      res.write(chunk([], { usage: USAGE }));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new Error("fake provider has no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    bodies,
    answer: (...answers) => queue.push(...answers),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of req)
    parts.push(Buffer.isBuffer(part) ? part : Buffer.from(String(part)));
  const parsed: unknown = JSON.parse(Buffer.concat(parts).toString("utf8") || "{}");
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? Object.fromEntries(Object.entries(parsed))
    : {};
}
