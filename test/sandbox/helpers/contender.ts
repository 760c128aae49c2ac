/**
 * The body of a contender process (see sandbox-ownership-cross-process.test.ts): a real provider
 * with a real cross-process ownership store that, once the go file appears, acquires one thread's
 * sandbox and claims one shared id, then reports and waits. Its backend records creations on disk
 * and "discovers" a sandbox another process created, like a container found by name.
 * Imported by a child process: keep it free of vitest.
 */
import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { sleep } from "../../../src/core/async/deadline.js";
import { FawnPaths } from "../../../src/core/paths.js";
import { ManagedSandboxProvider } from "../../../src/sandbox/lifecycle/managed-provider.js";
import type {
  SandboxBackend,
  SandboxSpec,
} from "../../../src/sandbox/lifecycle/sandbox-backend.js";
import { FileOwnershipStore } from "../../../src/sandbox/ownership/file-ownership-store.js";
import type { SandboxOwnershipStore } from "../../../src/sandbox/ownership/ownership-store.js";
import { RedisOwnershipStore } from "../../../src/sandbox/ownership/redis-ownership-store.js";
import { stubInstance } from "./stub-backend.js";

export type ContenderStore = "file" | "redis";

export interface ContenderScript {
  home: string;
  /** One round per store, all at once; Redis only when `redisUrl` is set. */
  stores: ContenderStore[];
  redisUrl?: string;
  keyPrefix?: string;
  ownerId: string;
  userId: string;
}

export interface ContenderReport {
  store: ContenderStore;
  ownerId: string;
  sandboxId: string;
  claimed: boolean;
}

/** Each round contends for its own thread and its own raced id. */
export const roundThreadId = (store: ContenderStore): string => `t-shared-${store}`;
export const roundRaceId = (store: ContenderStore): string => `sb-race-${store}`;

class MarkerBackend implements SandboxBackend {
  readonly kind = "container" as const;

  constructor(private readonly home: string) {}

  async discover(spec: SandboxSpec) {
    const marker = await stat(this.markerOf(spec)).catch(() => null);
    return marker ? stubInstance(spec.sandboxId) : null;
  }

  async create(spec: SandboxSpec) {
    // Widen the race: without the cross-process lock both processes would get here.
    await sleep(200);
    await appendFile(join(this.home, "creations.log"), `${spec.sandboxId} ${process.pid}\n`);
    await writeFile(this.markerOf(spec), String(process.pid));
    return stubInstance(spec.sandboxId);
  }

  private markerOf(spec: SandboxSpec): string {
    return join(spec.threadPaths.threadDir, `${spec.sandboxId}.created`);
  }
}

export async function runContender(): Promise<void> {
  const script = JSON.parse(process.env.FAWN_CONTENDER_SCRIPT ?? "") as ContenderScript;
  const rounds = script.stores.map((store) => {
    const ownership: SandboxOwnershipStore =
      store === "redis"
        ? new RedisOwnershipStore({
            url: script.redisUrl ?? "",
            keyPrefix: script.keyPrefix,
            ownerId: script.ownerId,
          })
        : new FileOwnershipStore({ dir: join(script.home, "leases"), ownerId: script.ownerId });
    const provider = new ManagedSandboxProvider({
      backend: new MarkerBackend(script.home),
      paths: new FawnPaths(script.home),
      ownership,
      startTimers: false,
    });
    return { store, ownership, provider };
  });
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  while ((await readFile(join(script.home, "go"), "utf8").catch(() => null)) === null) {
    await sleep(5);
  }
  const reports = await Promise.all(
    rounds.map(async ({ store, ownership, provider }): Promise<ContenderReport> => {
      const [sandboxId, claimed] = await Promise.all([
        provider.acquire(roundThreadId(store), script.userId),
        ownership.claim(roundRaceId(store)),
      ]);
      return { store, ownerId: ownership.ownerId, sandboxId, claimed };
    }),
  );
  process.stdout.write(`${JSON.stringify(reports)}\n`);
  // Stay alive (leases held, nothing torn down) until told to exit.
  const input = createInterface({ input: process.stdin });
  for await (const line of input) if (line.trim() === "exit") break;
  input.close();
  await Promise.all(rounds.map(({ ownership }) => ownership.close()));
}
