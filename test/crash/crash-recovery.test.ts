/**
 * Crash safety with real processes: worker processes execute scripted runs against a shared
 * store and are SIGKILLed at seeded points spread over the host phase and every finalizer stage
 * (several runs per process, each stopped at a different point). A peer then reconciles. Every
 * run must be terminal with exactly one `run.terminal` agreeing with its status, no acknowledged
 * event may be missing and no thread `seq` may repeat.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/core/clock.js";
import type { FawnStores } from "../../src/ports/fawn-stores.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { FINALIZER_STAGES } from "../../src/runtime/worker/finalizer-stages.js";
import { openSqlStores } from "../../src/stores/sql/stores.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const buildDir = join(root, "node_modules", ".cache", "fawn-crash");
const workerBundle = join(buildDir, "crash-worker.mjs");
const SEED = Number(process.env.FAWN_CRASH_SEED ?? 20_261_130);
const KILLS_PER_BACKEND = Number(process.env.FAWN_CRASH_KILLS ?? 27);
const RUNS_PER_KILL = 3;
const POINTS = ["host", "anywhere", ...FINALIZER_STAGES];

/** Deterministic PRNG so a failing sequence can be replayed with FAWN_CRASH_SEED. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Ack {
  threadId: string;
  runId: string;
  seq: number;
  eventType: string;
}

interface Observed {
  runs: Map<string, string>;
  acks: Ack[];
  tally: Map<string, number>;
}

beforeAll(async () => {
  // A bundled worker starts in a fraction of the time tsx needs, which matters at 50+ spawns.
  await mkdir(buildDir, { recursive: true });
  await build({
    entryPoints: [join(here, "crash-worker.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile: workerBundle,
    logLevel: "warning",
  });
  await copyFile(join(root, "src/stores/sql/sqlite-worker.js"), join(buildDir, "sqlite-worker.js"));
}, 60_000);

/** Start a worker, wait until every planned run reached its crash point, then SIGKILL it. */
async function crashOnce(
  url: string,
  warmup: number,
  points: string[],
  observed: Observed,
  extraDelayMs: number,
) {
  const child: ChildProcess = spawn(
    process.execPath,
    [workerBundle, url, String(warmup), points.join(",")],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const stopping = points.filter((p) => p !== "anywhere").length;
  let reached = 0;
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()));
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  const ready = new Promise<void>((resolveReady, rejectReady) => {
    const timer = setTimeout(
      () => rejectReady(new Error(`worker never reached its crash points: ${stderr}`)),
      60_000,
    );
    const killNow = (): void => {
      clearTimeout(timer);
      setTimeout(() => {
        child.kill("SIGKILL");
        resolveReady();
      }, extraDelayMs);
    };
    lines.on("line", (line) => {
      const [kind, a, b, c, d] = line.split(" ");
      if (kind === "run" && a && b) observed.runs.set(a, b);
      else if (kind === "ack" && a && b && c && d)
        observed.acks.push({ threadId: a, runId: b, seq: Number(c), eventType: d });
      else if (kind === "crash-point" && b) {
        observed.tally.set(b, (observed.tally.get(b) ?? 0) + 1);
        reached += 1;
        if (reached === stopping) killNow();
      } else if (kind === "all-finished") killNow();
      else if (kind === "ready" && stopping === 0) killNow();
    });
    child.once("exit", (code, signal) => {
      if (signal !== "SIGKILL") rejectReady(new Error(`worker exited early (${code}): ${stderr}`));
    });
  });
  await ready;
  await exited;
  lines.close();
}

async function verifyInvariants(stores: FawnStores, observed: Observed): Promise<void> {
  const peer = new RunManager({
    store: stores.runs,
    eventStore: stores.events,
    clock: new ManualClock(Date.now() + 3_600_000),
    ownership: { heartbeatEnabled: true, leaseSeconds: 30, graceSeconds: 10 },
  });
  const takenOver = await peer.reconcileOrphanedInflightRuns({
    error: "worker process was killed",
  });
  const resealed = await peer.recoverUnsealedRuns();
  const stuck: string[] = [];
  const disagreeing: string[] = [];
  const afterTerminal: string[] = [];
  for (const [runId, threadId] of observed.runs) {
    const row = await stores.runs.get(runId);
    expect(row, `run ${runId} row`).not.toBeNull();
    if (!row || row.status === "pending" || row.status === "running") {
      stuck.push(runId);
      continue;
    }
    const terminals = await stores.events.listEvents(threadId, runId, {
      eventTypes: ["run.terminal"],
    });
    const status = (terminals[0]?.content as { status?: string } | undefined)?.status;
    // A run's event log ends at its run.terminal: nothing durable after it, from anyone.
    const terminalSeq = terminals[0]?.seq;
    if (terminalSeq !== undefined) {
      const all = await stores.events.listEvents(threadId, runId, { limit: 10_000 });
      const late = all.filter((event) => event.seq > terminalSeq);
      if (late.length > 0) {
        afterTerminal.push(`${runId}: ${late.map((e) => `${e.seq}:${e.event_type}`).join(" ")}`);
      }
    }
    if (terminals.length !== 1 || status !== row.status || row.evidence_seal_state === "pending") {
      disagreeing.push(
        `${runId}: ${row.status}/${row.evidence_seal_state} terminals=${JSON.stringify(terminals.map((t) => t.content))}`,
      );
    }
  }
  expect(stuck, "runs stuck active after recovery").toEqual([]);
  expect(disagreeing, "runs without exactly one agreeing run.terminal").toEqual([]);
  expect(afterTerminal, "durable events after a run's run.terminal").toEqual([]);
  const byThread = new Map<string, Ack[]>();
  for (const ack of observed.acks)
    byThread.set(ack.threadId, [...(byThread.get(ack.threadId) ?? []), ack]);
  for (const [threadId, acks] of byThread) {
    const runId = acks[0]?.runId ?? "";
    const stored = await stores.events.listEvents(threadId, runId, { limit: 10_000 });
    const seqs = stored.map((e) => e.seq);
    expect(new Set(seqs).size, `duplicate seq on ${threadId}`).toBe(seqs.length);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    for (const ack of acks) {
      expect(
        stored.some(
          (e) => e.seq === ack.seq && e.event_type === ack.eventType && e.run_id === ack.runId,
        ),
        `acknowledged ${ack.eventType} seq ${ack.seq} on ${threadId} is missing`,
      ).toBe(true);
    }
  }
  const lines = [...observed.tally.entries()].sort().map(([point, count]) => `${point}=${count}`);
  process.stdout.write(
    `crash tally (seed ${SEED}): ${observed.runs.size} runs, ${observed.acks.length} acked events, ` +
      `${takenOver.length} taken over, ${resealed.length} resealed; stops: ${lines.join(" ")}\n`,
  );
}

const postgres = await createPostgresTestDatabase("crash_recovery");
afterAll(async () => {
  await postgres?.drop();
});

const backends: Array<[string, (dir: string) => string]> = [
  ["sqlite", (dir) => `sqlite:${join(dir, "crash.db")}`],
];
if (postgres) backends.push(["postgres", () => postgres.url]);

describe.each(backends)("SIGKILL crash recovery on %s", (_name, urlFor) => {
  it(`${KILLS_PER_BACKEND} kills spread over the host phase and every finalizer stage`, async () => {
    const dir = await mkdtemp(join(tmpdir(), "fawn-crash-"));
    const url = urlFor(dir);
    const random = mulberry32(SEED);
    const observed: Observed = { runs: new Map(), acks: [], tally: new Map() };
    // Prepare the schema once, so no worker dies half-way through a migration.
    const stores = await openSqlStores(url);
    try {
      let cursor = Math.floor(random() * POINTS.length);
      for (let kill = 0; kill < KILLS_PER_BACKEND; kill += 1) {
        const points: string[] = [];
        for (let i = 0; i < RUNS_PER_KILL; i += 1) {
          points.push(POINTS[cursor % POINTS.length] ?? "anywhere");
          cursor += 1;
        }
        await crashOnce(url, Math.floor(random() * 2), points, observed, Math.floor(random() * 15));
      }
      for (const point of POINTS.filter((p) => p !== "anywhere")) {
        expect(observed.tally.get(point) ?? 0, `no kill landed at ${point}`).toBeGreaterThan(0);
      }
      await verifyInvariants(stores, observed);
    } finally {
      await stores.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
