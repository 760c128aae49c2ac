/**
 * Two OS processes contend for one thread's sandbox, with the file store and (when reachable)
 * the Redis store: both get the same id, exactly one sandbox is created (the lock file serializes
 * the create), the lease ends with exactly one owner, and of two simultaneous claims of one id
 * exactly one wins. One pair of processes runs every store's round at once (startup is the cost).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileOwnershipStore } from "../../src/sandbox/ownership/file-ownership-store.js";
import type { SandboxOwnershipStore } from "../../src/sandbox/ownership/ownership-store.js";
import { RedisOwnershipStore } from "../../src/sandbox/ownership/redis-ownership-store.js";
import { deleteKeysWithPrefix, requireTestRedis, uniqueKeyPrefix } from "../helpers/redis.js";
import {
  type ContenderReport,
  type ContenderScript,
  type ContenderStore,
  roundRaceId,
} from "./helpers/contender.js";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const contenderModule = pathToFileURL(
  fileURLToPath(new URL("./helpers/contender.ts", import.meta.url)),
);
const redisUrl = await requireTestRedis();
const keyPrefix = uniqueKeyPrefix("sandbox-contend").slice(0, -1);
const stores: ContenderStore[] = redisUrl === null ? ["file"] : ["file", "redis"];

interface Contender {
  child: ChildProcessWithoutNullStreams;
  next(): Promise<unknown>;
  exited: Promise<void>;
}

function startContender(script: ContenderScript): Contender {
  const code = `const { runContender } = await import(${JSON.stringify(contenderModule.href)});
await runContender();`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: projectRoot,
    env: { ...process.env, FAWN_CONTENDER_SCRIPT: JSON.stringify(script) },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, "exit").then(([code]) => {
    if (code !== 0) throw new Error(`contender exited with ${String(code)}:\n${stderr}`);
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    exited,
    async next() {
      const line = await Promise.race([lines.next(), exited.then(() => null)]);
      if (!line || line.done) throw new Error(`contender stopped before reporting:\n${stderr}`);
      return JSON.parse(line.value);
    },
  };
}

describe("two processes contending for one thread's sandbox", () => {
  let home: string;
  let contenders: Contender[] = [];
  let reports: ContenderReport[] = [];
  let creations: string[] = [];

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-contend-"));
    const base = { home, stores, redisUrl: redisUrl ?? undefined, keyPrefix, userId: "alice" };
    contenders = ["proc-a", "proc-b"].map((ownerId) => startContender({ ...base, ownerId }));
    for (const contender of contenders) expect(await contender.next()).toEqual({ ready: true });
    await writeFile(join(home, "go"), "go");
    const perProcess = (await Promise.all(contenders.map((c) => c.next()))) as ContenderReport[][];
    reports = perProcess.flat();
    creations = (await readFile(join(home, "creations.log"), "utf8")).trim().split("\n");
  }, 60_000);

  afterAll(async () => {
    for (const contender of contenders) contender.child.stdin.end("exit\n");
    await Promise.allSettled(contenders.map((contender) => contender.exited));
    if (redisUrl !== null) await deleteKeysWithPrefix(redisUrl, `${keyPrefix}:`);
    await rm(home, { recursive: true, force: true });
  });

  function observe(store: ContenderStore): SandboxOwnershipStore {
    return store === "redis"
      ? new RedisOwnershipStore({ url: redisUrl ?? "", keyPrefix })
      : new FileOwnershipStore({ dir: join(home, "leases") });
  }

  it.each(stores)("ends with one sandbox and exactly one owner (%s store)", async (store) => {
    const round = reports.filter((report) => report.store === store);
    expect(round).toHaveLength(2);
    const [a, b] = round;
    expect(a?.sandboxId).toBe(b?.sandboxId);
    expect(creations.filter((line) => line.startsWith(`${a?.sandboxId} `))).toHaveLength(1);
    const observer = observe(store);
    try {
      expect(["proc-a", "proc-b"]).toContain(await observer.owner(a?.sandboxId ?? ""));
      const winners = round.filter((report) => report.claimed);
      expect(winners).toHaveLength(1);
      expect(await observer.owner(roundRaceId(store))).toBe(winners[0]?.ownerId);
    } finally {
      await observer.close();
    }
  });
});
