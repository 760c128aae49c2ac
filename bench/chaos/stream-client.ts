/**
 * A chaos client: creates a run through one server with the real `@langchain/langgraph-sdk`,
 * streams it, and whenever that stream fails or goes quiet (its server was killed or paused)
 * rejoins through another server with `Last-Event-ID`, until the stream completes or ends with a
 * `gap` frame. It records what it saw for the checker.
 */
import { Client } from "@langchain/langgraph-sdk";
import type { ServeProcess } from "../../test/helpers/fawn-serve-process.js";

/** What one client saw of one run's stream. */
export interface StreamRecord {
  threadId: string;
  runId: string | null;
  /** How it ended: the server closed it after END, a `gap` frame, or the client gave up. */
  outcome: "complete" | "gap" | "gave_up" | "not_created";
  /** Connections after the first one (each with `Last-Event-ID`). */
  rejoins: number;
  /** Event ids seen more than once (must stay empty: exactly-once resume). */
  duplicateIds: string[];
  events: number;
  /** Run status read right after a complete stream (must be terminal: END follows it). */
  statusAfterEnd: string | null;
  /** The reason of the last failed connection, for the report. */
  lastError: string | null;
  /** Creates that failed before the server named the run (each retried on a new thread). */
  failedCreates: string[];
}

export interface StreamClientOptions {
  /** Servers to use now (a function: the set changes under chaos). */
  servers: () => ServeProcess[];
  random: () => number;
  /** A connection without any part for this long is taken for a dead or paused server. */
  idleMs: number;
  /** Give up (outcome `gave_up`) after this many connections. */
  maxConnections: number;
}

function clientOf(server: ServeProcess): Client {
  // No SDK retries against the same server: this client moves to another one instead.
  return new Client({ apiUrl: server.apiUrl, apiKey: null, callerOptions: { maxRetries: 0 } });
}

function pick(options: StreamClientOptions, avoid?: ServeProcess): ServeProcess | null {
  const servers = options.servers();
  const others = servers.filter((s) => s !== avoid);
  const from = others.length > 0 ? others : servers;
  if (from.length === 0) return null;
  return from[Math.floor(options.random() * from.length)] ?? null;
}

/** Aborts when no part arrived for `idleMs`; `touch()` on every part. */
function idleWatch(idleMs: number): { signal: AbortSignal; touch(): void; stop(): void } {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(new Error("idle")), idleMs);
  return {
    signal: controller.signal,
    touch() {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new Error("idle")), idleMs);
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/** The SSE id of a part (the SDK's typed modes omit it, but every Fawn frame carries one). */
function idOf(part: object): string | undefined {
  return "id" in part && typeof part.id === "string" ? part.id : undefined;
}

function isStreamFailure(data: unknown): boolean {
  return (
    typeof data === "object" && data !== null && "error" in data && data.error === "StreamError"
  );
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams one new run to its end through whichever servers are up. */
export async function streamOneRun(options: StreamClientOptions): Promise<StreamRecord> {
  const record: StreamRecord = {
    threadId: "",
    runId: null,
    outcome: "not_created",
    rejoins: 0,
    duplicateIds: [],
    events: 0,
    statusAfterEnd: null,
    lastError: null,
    failedCreates: [],
  };
  const seen = new Set<string>();
  let lastEventId: string | undefined;
  let server: ServeProcess | null = null;
  for (let connection = 0; connection < options.maxConnections; connection += 1) {
    server = pick(options, server ?? undefined);
    if (!server) {
      await wait(500);
      continue;
    }
    const client = clientOf(server);
    const watch = idleWatch(options.idleMs);
    try {
      if (!record.threadId) {
        record.threadId = (await client.threads.create({ signal: watch.signal })).thread_id;
      }
      const parts =
        record.runId === null
          ? client.runs.stream(record.threadId, "lead_agent", {
              input: { messages: [{ role: "user", content: "chaos" }] },
              streamMode: ["messages-tuple"],
              signal: watch.signal,
              onRunCreated: (created) => {
                record.runId = created.run_id;
              },
            })
          : client.runs.joinStream(record.threadId, record.runId, {
              signal: watch.signal,
              ...(lastEventId === undefined ? {} : { lastEventId }),
            });
      if (connection > 0 && record.runId !== null) record.rejoins += 1;
      for await (const part of parts) {
        watch.touch();
        const id = idOf(part);
        // A `gap` frame carries the cursor it could not resume from: not a second delivery.
        if (id !== undefined && part.event !== "gap") {
          if (seen.has(id)) record.duplicateIds.push(`${id} (${part.event})`);
          seen.add(id);
          lastEventId = id;
        }
        record.events += 1;
        // The server's subscription failed (Redis went away): it says so and asks for a rejoin.
        if (part.event === "error" && isStreamFailure(part.data)) {
          throw new Error("the server's stream failed; rejoining");
        }
        if (part.event === "gap") {
          record.outcome = "gap";
          return record;
        }
      }
      if (record.runId === null) continue; // Closed before the run was created: try again.
      record.outcome = "complete";
      record.statusAfterEnd = (await client.runs.get(record.threadId, record.runId)).status;
      return record;
    } catch (error) {
      record.lastError = error instanceof Error ? error.message : String(error);
      // A create that failed before the server named the run: the run may exist or not; the
      // checker sees every run in the database either way. Start over with a new thread.
      if (record.runId === null) {
        record.failedCreates.push(record.lastError);
        record.threadId = "";
      }
    } finally {
      watch.stop();
    }
  }
  if (record.runId !== null) record.outcome = "gave_up";
  return record;
}
