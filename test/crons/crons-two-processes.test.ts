/**
 * Crons across two real processes over one fresh PostgreSQL database, each with its own clock
 * that the test sets over IPC:
 * 1. both tick the same due times: each tick produces exactly one run;
 * 2. one process is SIGKILLed between two named firing steps (after `claim`, before
 *    `run_create`; after `run_create`, before `advance`): the survivor fires nothing while the
 *    dead claimant's lease lasts, then completes that firing once — no tick lost, no run doubled.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FiringOutcome } from "../../src/gateway/crons/cron-firing.js";
import type { CronFiringStep, CronRow } from "../../src/ports/cron-store.js";
import { SqlCronStore } from "../../src/stores/sql/sql-cron-store.js";
import { openSqlStores, type SqlStores } from "../../src/stores/sql/stores.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

/** As `cron-process.ts` holds its claims. */
const LEASE_MS = 30_000;
const WORKER = new URL("./cron-process.ts", import.meta.url).pathname;
const T0 = Date.parse("2030-01-01T00:00:00.000Z");
const minute = (n: number): string => new Date(T0 + n * 60_000).toISOString();

const postgres = await createPostgresTestDatabase("crons_two");

interface Worker {
  child: ChildProcess;
  exited: Promise<void>;
  tick(now: string): Promise<FiringOutcome[]>;
  park(step: CronFiringStep): Promise<{ cronId: string; tick: string }>;
  send(message: unknown): void;
}

const workers: Worker[] = [];
const homes: string[] = [];
let stores: SqlStores;
let crons: SqlCronStore;

async function startWorker(url: string, owner: string): Promise<Worker> {
  const home = await mkdtemp(join(tmpdir(), "fawn-crons-two-"));
  homes.push(home);
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, url, owner, home], {
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    env: { ...process.env, FAWN_HOME: home },
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const waiters = new Map<string, (message: Record<string, unknown>) => void>();
  child.on("message", (message: Record<string, unknown>) => {
    const key = message.type === "ticked" ? `ticked:${String(message.id)}` : String(message.type);
    waiters.get(key)?.(message);
    waiters.delete(key);
  });
  const next = (key: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      waiters.set(key, resolve);
      void exited.then(() => reject(new Error(`${owner} exited before ${key}: ${stderr}`)));
    });
  await next("ready");
  let ids = 0;
  const worker: Worker = {
    child,
    exited,
    send: (message) => child.send(message as never),
    async tick(now) {
      ids += 1;
      const answer = next(`ticked:${ids}`);
      child.send({ type: "tick", id: ids, now });
      const message = await answer;
      if (message.error) throw new Error(`${owner} tick failed: ${String(message.error)}`);
      return message.outcomes as FiringOutcome[];
    },
    async park(step) {
      const parked = next("parked");
      child.send({ type: "park", step });
      return (await parked) as unknown as { cronId: string; tick: string };
    },
  };
  workers.push(worker);
  return worker;
}

async function kill(worker: Worker): Promise<void> {
  worker.child.kill("SIGKILL");
  await worker.exited;
}

async function threadCron(id: string, nextRun: string): Promise<CronRow> {
  const threadId = `thread-${id}`;
  await stores.threads.create({ thread_id: threadId, user_id: "alice", created_at: minute(-1) });
  return crons.create({
    cron_id: id,
    assistant_id: "lead_agent",
    thread_id: threadId,
    user_id: "alice",
    schedule: "* * * * *",
    timezone: null,
    payload: {
      input: { messages: [{ role: "user", content: `tick of ${id}` }] },
      multitask_strategy: "enqueue",
    },
    metadata: {},
    on_run_completed: null,
    enabled: true,
    end_time: null,
    next_run_date: nextRun,
    created_at: minute(-1),
    updated_at: minute(-1),
  });
}

const runsOf = (threadId: string | null) =>
  stores.runs.listByThread(threadId ?? "", { limit: 100, offset: 0 });

beforeAll(async () => {
  if (postgres === null) return;
  stores = await openSqlStores(postgres.url);
  crons = new SqlCronStore(stores.database);
}, 60_000);

afterAll(async () => {
  for (const worker of workers) {
    if (worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill("SIGKILL");
      await worker.exited;
    }
  }
  await stores?.close();
  await postgres?.drop();
  for (const home of homes) await rm(home, { recursive: true, force: true });
});

describe.skipIf(postgres === null)("crons across two processes (PostgreSQL)", () => {
  it("fires each tick exactly once when both processes tick it", async () => {
    if (postgres === null) return;
    const [a, b] = await Promise.all([
      startWorker(postgres.url, "process-a"),
      startWorker(postgres.url, "process-b"),
    ]);
    if (!a || !b) throw new Error("workers did not start");
    const cron = await threadCron("every-minute", minute(0));
    const fired: string[] = [];
    for (let n = 0; n < 4; n += 1) {
      const outcomes = (await Promise.all([a.tick(minute(n)), b.tick(minute(n))])).flat();
      expect(outcomes).toHaveLength(1);
      expect(outcomes[0]).toMatchObject({ cronId: cron.cron_id, tick: minute(n), advanced: true });
      fired.push(outcomes[0]?.runId ?? "");
    }
    const runs = await runsOf(cron.thread_id);
    expect(runs.map((run) => run.run_id).sort()).toEqual([...new Set(fired)].sort());
    expect(runs).toHaveLength(4);
    expect((await crons.get(cron.cron_id))?.next_run_date).toBe(minute(4));
    await crons.delete(cron.cron_id);
    await kill(a);
    await kill(b);
  }, 120_000);

  for (const step of ["claim", "run_create"] as const) {
    it(`completes a firing once after its claimant died after "${step}"`, async () => {
      if (postgres === null) return;
      const [doomed, survivor] = await Promise.all([
        startWorker(postgres.url, `doomed-${step}`),
        startWorker(postgres.url, `survivor-${step}`),
      ]);
      if (!doomed || !survivor) throw new Error("workers did not start");
      const cron = await threadCron(`crash-${step.replace("_", "-")}`, minute(10));
      const parked = doomed.park(step);
      doomed.send({ type: "tick", id: 1, now: minute(10) });
      expect(await parked).toEqual({
        type: "parked",
        step,
        cronId: cron.cron_id,
        tick: minute(10),
      });
      await kill(doomed);
      const createdByTheDead = (await runsOf(cron.thread_id)).length;
      expect(createdByTheDead).toBe(step === "claim" ? 0 : 1);
      // While the dead claimant's lease lasts, nobody fires that tick.
      const during = new Date(T0 + 10 * 60_000 + LEASE_MS - 1000).toISOString();
      expect(await survivor.tick(during)).toEqual([]);
      // After it, the survivor completes the firing, replaying the run the dead one created.
      const after = new Date(T0 + 10 * 60_000 + LEASE_MS + 1000).toISOString();
      const outcomes = await survivor.tick(after);
      expect(outcomes).toMatchObject([{ cronId: cron.cron_id, tick: minute(10), advanced: true }]);
      const runs = await runsOf(cron.thread_id);
      expect(runs).toHaveLength(1);
      expect(runs[0]?.run_id).toBe(outcomes[0]?.runId);
      expect(await survivor.tick(after)).toEqual([]);
      expect((await crons.get(cron.cron_id))?.next_run_date).toBe(minute(11));
      await crons.delete(cron.cron_id);
      await kill(survivor);
    }, 120_000);
  }
});
