import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { CALLER_HEADER } from "../../../src/agent/mock-openai/server.js";

/** One message of an OpenAI chat-completions request, as the model client sent it. */
export interface WireMessage {
  role: string;
  content?: unknown;
  name?: string;
  tool_call_id?: string;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
}

export interface RecordedRequest {
  /** `x-fawn-caller` (a middleware's side call), or null for the lead agent's own calls. */
  caller: string | null;
  messages: WireMessage[];
}

export interface RecordingOpenAIProxy {
  /** Base URL for the OpenAI client (ends in `/v1`). */
  url: string;
  /** Every chat-completions request, in arrival order. */
  requests: RecordedRequest[];
  /** Only the lead agent's calls (no middleware side calls). */
  leadRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Sits between the real `@langchain/openai` client and `fawn mock-openai`, recording each
 * chat-completions body before forwarding it unchanged (streamed answers are piped through), so
 * a test sees exactly what the model was sent.
 */
export async function startRecordingProxy(upstreamUrl: string): Promise<RecordingOpenAIProxy> {
  const requests: RecordedRequest[] = [];
  const upstream = new URL(upstreamUrl.replace(/\/v1\/?$/, ""));
  const server = createServer((req, res) => {
    forward(req, res, upstream, requests).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    leadRequests: () => requests.filter((request) => request.caller === null),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: URL,
  requests: RecordedRequest[],
): Promise<void> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part));
  const body = Buffer.concat(parts);
  if (req.method === "POST" && req.url?.includes("/chat/completions")) {
    const parsed = JSON.parse(body.toString("utf8")) as { messages?: WireMessage[] };
    const caller = req.headers[CALLER_HEADER];
    requests.push({
      caller: typeof caller === "string" ? caller : null,
      messages: parsed.messages ?? [],
    });
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string" && !["host", "content-length", "connection"].includes(name)) {
      headers.set(name, value);
    }
  }
  const gone = new AbortController();
  res.on("close", () => gone.abort());
  const answer = await fetch(new URL(req.url ?? "/", upstream), {
    method: req.method ?? "GET",
    headers,
    ...(body.length > 0 ? { body } : {}),
    signal: gone.signal,
  });
  const outHeaders: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!["content-length", "transfer-encoding", "connection", "content-encoding"].includes(name)) {
      outHeaders[name] = value;
    }
  });
  res.writeHead(answer.status, outHeaders);
  if (answer.body) {
    for await (const chunk of answer.body) res.write(chunk);
  }
  res.end();
}
