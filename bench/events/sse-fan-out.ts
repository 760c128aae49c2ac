import { randomUUID } from "node:crypto";
import { type IncomingMessage, request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@langchain/langgraph-sdk";
import type { ChildServer } from "../lib/child-server.js";
import { BENCH_ASSISTANT, userInput } from "../runtime/bench-graph.js";

export interface FanOutFigures {
  streams: number;
  /** Subscribers answered 200 `text/event-stream` and still open when memory was read. */
  held: number;
  connectSeconds: number;
  heapPerStreamBytes: number;
  rssPerStreamBytes: number;
  /** Cancel → every subscriber's stream ended (the terminal frames fanned out to all). */
  endAllMs: number;
}

/** Connections opened at once: bounded so the listen backlog never drops a SYN. */
const CONNECT_WAVE = 100;

function isMemory(value: unknown): value is { heapUsed: number; rss: number } {
  return (
    typeof value === "object" &&
    value !== null &&
    "heapUsed" in value &&
    typeof value.heapUsed === "number" &&
    "rss" in value &&
    typeof value.rss === "number"
  );
}

async function memoryOf(server: ChildServer): Promise<{ heapUsed: number; rss: number }> {
  const memory = await server.request("memory");
  if (!isMemory(memory)) throw new Error("the server answered no memory figures");
  return memory;
}

/** Opens `GET …/runs/{id}/stream` (the SDK's joinStream route) and resolves on its headers. */
function subscribe(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: "text/event-stream" } }, resolve);
    req.once("error", reject);
    req.end();
  });
}

async function waitForStatus(client: Client, threadId: string, runId: string, status: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await client.runs.get(threadId, runId)).status === status) return;
    await sleep(25);
  }
  throw new Error(`run ${runId} never reached ${status}`);
}

/**
 * N idle subscribers on one run whose model never answers: how many the server holds, what each
 * costs it (heap and RSS after a full GC, over the same figures with the run alone), and how long
 * cancelling the run takes to end every stream.
 */
export async function sseFanOut(
  server: ChildServer,
  client: Client,
  n: number,
): Promise<FanOutFigures> {
  const threadId = randomUUID();
  const run = await client.runs.create(threadId, BENCH_ASSISTANT, {
    input: userInput("hold"),
    ifNotExists: "create",
  });
  await waitForStatus(client, threadId, run.run_id, "running");
  const before = await memoryOf(server);
  const url = `${server.url}/api/threads/${threadId}/runs/${run.run_id}/stream`;
  const responses: IncomingMessage[] = [];
  const ended: Array<Promise<void>> = [];
  const connectStarted = performance.now();
  for (let opened = 0; opened < n; opened += CONNECT_WAVE) {
    const wave = await Promise.all(
      Array.from({ length: Math.min(CONNECT_WAVE, n - opened) }, () => subscribe(url)),
    );
    for (const response of wave) {
      responses.push(response);
      response.resume();
      ended.push(new Promise((resolve) => response.once("close", () => resolve())));
    }
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  const after = await memoryOf(server);
  const held = responses.filter(
    (r) =>
      r.statusCode === 200 &&
      String(r.headers["content-type"]).startsWith("text/event-stream") &&
      !r.complete,
  ).length;
  const cancelled = performance.now();
  await client.runs.cancel(threadId, run.run_id);
  const allEnded = await Promise.race([
    Promise.all(ended).then(() => true),
    sleep(30_000).then(() => false),
  ]);
  if (!allEnded) for (const response of responses) response.destroy();
  return {
    streams: n,
    held,
    connectSeconds,
    heapPerStreamBytes: (after.heapUsed - before.heapUsed) / n,
    rssPerStreamBytes: (after.rss - before.rss) / n,
    endAllMs: allEnded ? performance.now() - cancelled : Number.NaN,
  };
}
