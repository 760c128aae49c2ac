/**
 * One chaos run: three `fawn serve` processes on a fresh PostgreSQL database and a Redis of its
 * own, clients streaming runs through them, and faults on a seeded schedule — SIGKILL (the
 * process is restarted), SIGSTOP/SIGCONT (some past the lease) and one Redis restart (every key
 * lost). Afterwards every process is brought back, the runs are left to end (a peer recovers the
 * ones whose owner died), and the checker lists every broken guarantee.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startPrivateRedis } from "../../test/helpers/redis.js";
import { bundleEntry } from "../lib/bundle.js";
import { freshPostgresDatabase } from "../lib/postgres.js";
import { type CheckResult, checkChaos, unsettledRunIds } from "./checker.js";
import { ChaosCluster } from "./cluster.js";
import { type StreamRecord, streamOneRun } from "./stream-client.js";

export type Fault = "kill" | "pause" | "redis_restart";

export interface ChaosOptions {
  processes: number;
  /** How long clients start new runs and faults are injected. */
  seconds: number;
  clients: number;
  /** Faults in order, one every `seconds / (faults + 1)`; "random": a seeded mix. */
  faults: Fault[] | "random";
  seed: number;
  log(message: string): void;
}

export interface ChaosResult extends CheckResult {
  kills: number;
  pauses: number;
  redisRestarts: number;
  streams: StreamRecord[];
  seconds: number;
}

const LEASE_SECONDS = 5;

/** mulberry32: a small seeded generator, so a failing schedule can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A mix with one Redis restart in the middle, otherwise kills and pauses. */
function randomFaults(count: number, random: () => number): Fault[] {
  const faults: Fault[] = [];
  for (let i = 0; i < count; i += 1) faults.push(random() < 0.5 ? "kill" : "pause");
  faults[Math.floor(count / 2)] = "redis_restart";
  return faults;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const random = seededRandom(options.seed);
  const redis = await startPrivateRedis();
  if (!redis) throw new Error("chaos needs redis-server on PATH");
  const database = await freshPostgresDatabase();
  const dir = await mkdtemp(join(tmpdir(), "fawn-chaos-"));
  const cluster = new ChaosCluster({
    dir,
    databaseUrl: database.url,
    redisUrl: redis.url,
    words: 30,
    delayMs: 100,
    leaseSeconds: LEASE_SECONDS,
    // Compiled once: three processes start (and restart) in seconds instead of through tsx.
    cli: await bundleEntry("src/cli/main.ts"),
  });
  const tally = { kills: 0, pauses: 0, redisRestarts: 0 };
  const started = performance.now();
  try {
    await cluster.start(options.processes);
    options.log(`chaos: ${options.processes} processes up (seed ${options.seed})`);
    const until = Date.now() + options.seconds * 1000;
    const streams: StreamRecord[] = [];
    const clientLoop = async () => {
      while (Date.now() < until) {
        streams.push(
          await streamOneRun({
            servers: () => cluster.serving(),
            random,
            idleMs: 4000,
            maxConnections: 40,
          }),
        );
      }
    };
    const faults =
      options.faults === "random"
        ? randomFaults(Math.max(3, Math.round(options.seconds / 8)), random)
        : options.faults;
    const faultLoop = async () => {
      const gapMs = (options.seconds * 1000) / (faults.length + 1);
      const pending: Promise<void>[] = [];
      for (const fault of faults) {
        await sleep(gapMs);
        const targets = cluster.disruptable();
        const target = targets[Math.floor(random() * targets.length)];
        if (fault === "redis_restart") {
          tally.redisRestarts += 1;
          options.log("chaos: redis restart");
          await redis.restartEmpty();
        } else if (target !== undefined && fault === "kill") {
          tally.kills += 1;
          options.log(`chaos: SIGKILL node ${target}`);
          pending.push(cluster.killAndRestart(target));
        } else if (target !== undefined) {
          tally.pauses += 1;
          // Half the pauses outlast the lease: the peer takes the paused owner's runs over.
          const ms = 1000 + Math.floor(random() * (LEASE_SECONDS + 4) * 1000);
          options.log(`chaos: SIGSTOP node ${target} for ${ms} ms`);
          pending.push(cluster.pause(target, ms));
        }
      }
      await Promise.all(pending);
    };
    await Promise.all([faultLoop(), ...Array.from({ length: options.clients }, clientLoop)]);
    // Every process is back; dead owners' runs are recovered (and their evidence sealed) within
    // lease + scan.
    const settleBy = Date.now() + (LEASE_SECONDS + 20) * 1000;
    while ((await unsettledRunIds(database.url)).length > 0 && Date.now() < settleBy)
      await sleep(500);
    const check = await checkChaos(database.url, streams);
    return {
      ...check,
      ...tally,
      streams,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await cluster.stop();
    await redis.stop();
    await database.drop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
