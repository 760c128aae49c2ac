/**
 * A worker process for the crash test: executes scripted runs against a shared SQL store. After
 * `warmup` ordinary runs it starts one concurrent run per crash point; each stops dead (waits
 * forever, to be SIGKILLed) at its point: `host` (mid-stream), a finalizer stage, or `anywhere`
 * (never stops: the kill lands wherever it is). Every event the store acknowledged is printed as
 * `ack <thread_id> <run_id> <seq> <event_type>` so the parent can check none is lost.
 *
 * Usage: node crash-worker.mjs <database-url> <warmup-runs> <point,point,...>
 */
import { randomUUID } from "node:crypto";
import type { StreamingAgent } from "../../src/ports/agent.js";
import type { NewRunEvent, RunEvent, RunEventStore } from "../../src/ports/run-event-store.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { RunService } from "../../src/runtime/run-service.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { openSqlStores } from "../../src/stores/sql/stores.js";
import { runJournalOf } from "../helpers/run-journal-of.js";

const [url, warmupText, pointsText] = process.argv.slice(2);
if (!url || !warmupText || !pointsText)
  throw new Error("usage: crash-worker <url> <warmup> <points>");
/** run id → where that run stops. */
const crashPoints = new Map<string, string>();

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function stopHere(runId: string, where: string): Promise<never> {
  say(`crash-point ${runId} ${where}`);
  // A parked run holds a timer: with every run parked (and the store's timers unref'd) the event
  // loop would empty and Node would exit (code 13) before the parent's SIGKILL arrives.
  setInterval(() => undefined, 60_000);
  return new Promise<never>(() => undefined);
}

function printAcks(events: RunEvent[]): void {
  for (const e of events) say(`ack ${e.thread_id} ${e.run_id} ${e.seq} ${e.event_type}`);
}

/** Reports every acknowledged write; the store itself is the real SQL store. */
function acknowledging(store: RunEventStore): RunEventStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === "put") {
        return async (event: NewRunEvent) => {
          const written = await target.put(event);
          printAcks([written]);
          return written;
        };
      }
      if (key === "putBatch") {
        return async (batch: readonly NewRunEvent[]) => {
          const written = await target.putBatch(batch);
          printAcks(written);
          return written;
        };
      }
      if (key === "putIfAbsent") {
        return async (...args: Parameters<RunEventStore["putIfAbsent"]>) => {
          const result = await target.putIfAbsent(...args);
          if (result.created) printAcks([result.event]);
          return result;
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const agent: StreamingAgent = {
  async *stream(_input, options) {
    const journal = runJournalOf(options);
    const runId = String(options.configurable?.run_id ?? "");
    const id = randomUUID();
    journal?.handleChainStart({ name: "crash-graph" }, {}, id);
    for (let step = 0; step < 3; step += 1) {
      yield { type: "task_running", task_id: "t", text: `step ${step}` };
      journal?.recordMiddleware("crash_probe", {
        name: "probe",
        hook: "step",
        action: String(step),
      });
      await journal?.flush();
      if (step === 1 && crashPoints.get(runId) === "host") await stopHere(runId, "host");
    }
    journal?.handleChainEnd({ done: true }, id);
  },
};

const stores = await openSqlStores(url);
const events = acknowledging(stores.events);
const manager = new RunManager({
  store: stores.runs,
  eventStore: events,
  workerId: `crash-worker-${process.pid}`,
  ownership: {
    heartbeatEnabled: true,
    leaseSeconds: Number(process.env.FAWN_CRASH_LEASE_SECONDS ?? 30),
    graceSeconds: 0,
  },
});
manager.startHeartbeat();
const service = new RunService({
  manager,
  bridge: new MemoryStreamBridge(),
  ctx: {
    eventStore: events,
    threadStore: stores.threads,
    spawnHousekeeping: () => undefined,
    beforeStage: async (stage, record) => {
      if (crashPoints.get(record.runId) === stage) await stopHere(record.runId, stage);
    },
  },
  agentFactory: () => agent,
});
say("ready");

async function submit(point: string | null) {
  const threadId = `crash-${randomUUID()}`;
  const runId = randomUUID();
  if (point) crashPoints.set(runId, point);
  const record = await service.submit({
    threadId,
    runId,
    userId: "crash-user",
    invocation: { input: {}, stream_mode: ["custom"] },
  });
  say(`run ${record.runId} ${threadId}`);
  return record;
}

for (let i = 0; i < Number(warmupText); i += 1) {
  const record = await submit(null);
  await record.task?.settled();
}
const crashing = await Promise.all(pointsText.split(",").map((point) => submit(point)));
await Promise.all(crashing.map((record) => record.task?.settled()));
say("all-finished");
