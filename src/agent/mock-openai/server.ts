import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { sleep } from "../../core/async/deadline.js";
import { raceCancellation } from "../../core/async/task.js";
import { loadScript } from "../scripted/load-script.js";
import {
  answerFromScript,
  isMiddlewareCaller,
  middlewareReply,
  type ScriptedReply,
} from "../scripted/script-engine.js";
import type { Script } from "../scripted/script-schema.js";
import {
  type ChatRequest,
  chatRequestSchema,
  completionBody,
  completionChunks,
  requestToolNames,
  toScriptMessages,
  usageOf,
} from "./openai-wire.js";

export interface MockOpenAIOptions {
  /** A loaded script, or the path of a script file. */
  script: Script | string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the mock is for local tests and demos. */
  host?: string;
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (to test key handling). */
  apiKey?: string;
  /** The model id listed by `/v1/models` (any requested id is answered). */
  modelName?: string;
}

export interface MockOpenAIServer {
  /** Base URL for an OpenAI client, ending in `/v1`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Header a middleware's request carries so its call consumes no scripted turn (the HTTP
 * counterpart of the `middleware:*` tag the in-process scripted model reads).
 */
export const CALLER_HEADER = "x-fawn-caller";

const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * An OpenAI-compatible server answering from a script, so the real `@langchain/openai` client
 * (or any OpenAI SDK) can be driven deterministically: `/v1/chat/completions` (streaming SSE and
 * JSON, tool calls, usage) and `/v1/models`.
 */
export async function startMockOpenAI(options: MockOpenAIOptions): Promise<MockOpenAIServer> {
  const script =
    typeof options.script === "string" ? await loadScript(options.script) : options.script;
  const modelName = options.modelName ?? "fawn-scripted";
  const server = createServer((req, res) => {
    handle(req, res, { script, modelName, apiKey: options.apiKey }).catch((error: unknown) => {
      sendError(res, 500, error instanceof Error ? error.message : "internal error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") {
    server.close();
    throw new Error("The mock OpenAI server did not get a TCP address.");
  }
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/v1`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Hanging (scripted `hang: true`) and keep-alive connections would hold close() open.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

interface HandlerContext {
  script: Script;
  modelName: string;
  apiKey: string | undefined;
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: HandlerContext) {
  const path = new URL(req.url ?? "/", "http://mock").pathname.replace(/\/+$/, "");
  if (ctx.apiKey !== undefined && req.headers.authorization !== `Bearer ${ctx.apiKey}`) {
    return sendError(res, 401, "Incorrect API key provided.", "invalid_api_key");
  }
  if (req.method === "GET" && path === "/v1/models") {
    return sendJson(res, 200, {
      object: "list",
      data: [{ id: ctx.modelName, object: "model", created: 0, owned_by: "fawn" }],
    });
  }
  if (req.method === "POST" && path === "/v1/chat/completions") {
    return chatCompletions(req, res, ctx);
  }
  return sendError(res, 404, `No route for ${req.method ?? "?"} ${path}`, "not_found");
}

async function chatCompletions(req: IncomingMessage, res: ServerResponse, ctx: HandlerContext) {
  const body = await readJson(req);
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    return sendError(res, 400, `Invalid request: ${parsed.error.issues[0]?.message ?? "bad body"}`);
  }
  const request = parsed.data;
  const messages = toScriptMessages(request);
  const callerHeader = req.headers[CALLER_HEADER];
  const caller = typeof callerHeader === "string" ? callerHeader : undefined;
  const reply = isMiddlewareCaller(caller)
    ? middlewareReply(ctx.script, caller, messages)
    : answerFromScript(ctx.script, messages, requestToolNames(request));
  // The client going away is this request's cancellation.
  const disconnected = new AbortController();
  res.on("close", () => disconnected.abort(new Error("client disconnected")));
  if (reply.hang) {
    await raceCancellation(new Promise<never>(() => undefined), disconnected.signal).catch(
      () => undefined,
    );
    return;
  }
  const identity = {
    id: `chatcmpl-${randomUUID()}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
  };
  const usage = usageOf(messages, reply);
  if (!request.stream) return sendJson(res, 200, completionBody(identity, reply, usage));
  await streamReply(res, request, reply, identity, usage, disconnected.signal);
}

async function streamReply(
  res: ServerResponse,
  request: ChatRequest,
  reply: ScriptedReply,
  identity: { id: string; created: number; model: string },
  usage: ReturnType<typeof usageOf>,
  signal: AbortSignal,
) {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const includeUsage = request.stream_options?.include_usage === true;
  const frames = completionChunks(identity, reply, includeUsage ? usage : null);
  try {
    for (const [index, frame] of frames.entries()) {
      if (index > 0 && reply.streamDelayMs > 0) await sleep(reply.streamDelayMs, signal);
      if (signal.aborted) return;
      res.write(`data: ${JSON.stringify(frame)}\n\n`);
    }
    res.end("data: [DONE]\n\n");
  } catch {
    // Aborted mid-stream: the client is gone, nothing to answer.
    res.destroy();
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    const buffer = Buffer.isBuffer(part) ? part : Buffer.from(String(part));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error("request body too large");
    parts.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(parts).toString("utf8"));
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, code?: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, {
    error: { message, type: "invalid_request_error", param: null, code: code ?? null },
  });
}
