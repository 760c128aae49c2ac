/**
 * Redis for tests: one reachability check per test file and a unique key prefix per file, so
 * parallel test files sharing one server never see each other's keys. In CI an unreachable server
 * fails the file; elsewhere the caller skips its Redis suites and we say so loudly.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import { Redis } from "ioredis";
import { RedisStreamBridge } from "../../src/stores/redis/stream-bridge.js";

export const DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379";

export function testRedisUrl(): string {
  return process.env.FAWN_TEST_REDIS_URL ?? DEFAULT_TEST_REDIS_URL;
}

/** CI systems set CI=true (or 1); treat an explicit false/0 as a local run. */
function inCi(): boolean {
  const value = process.env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "false" && value !== "0";
}

function warnSkipped(reason: string): void {
  const line = "!".repeat(78);
  console.warn(
    `\n${line}\n!! Redis tests SKIPPED: ${reason}\n` +
      `!! Set FAWN_TEST_REDIS_URL (default ${DEFAULT_TEST_REDIS_URL}) to run them.\n` +
      `!! In CI these tests fail instead of skipping.\n${line}\n`,
  );
}

/** A connection that fails fast instead of retrying: for checks and test bookkeeping. */
export function openTestRedis(url = testRedisUrl()): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => undefined);
  return client;
}

/**
 * The test server's URL if it answers PING. Returns null (after a loud warning) when it is
 * unreachable outside CI; throws in CI.
 */
export async function requireTestRedis(): Promise<string | null> {
  const url = testRedisUrl();
  const client = openTestRedis(url);
  // The rejection only says "Connection is closed."; the socket error says why (ECONNREFUSED…).
  let socketError: unknown;
  client.on("error", (error: unknown) => {
    socketError ??= error;
  });
  try {
    await client.connect();
    await client.ping();
    return url;
  } catch (error) {
    const cause = socketError ?? error;
    const reason = `cannot reach ${url} (${cause instanceof Error ? cause.message : String(cause)})`;
    if (inCi()) throw new Error(`Redis is required in CI: ${reason}`, { cause: error });
    warnSkipped(reason);
    return null;
  } finally {
    client.disconnect();
  }
}

/** `fawn-test:<label>:<random>:`, unique per call. */
export function uniqueKeyPrefix(label: string): string {
  const safeLabel = label.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 24);
  return `fawn-test:${safeLabel}:${randomBytes(4).toString("hex")}:`;
}

/** Deletes every key under `prefix` (SCAN, never KEYS: the server may be shared). */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<number> {
  const client = openTestRedis(url);
  let deleted = 0;
  try {
    await client.connect();
    // Glob metacharacters in the prefix are escaped so the pattern matches it literally.
    const pattern = `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`;
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) deleted += await client.del(...keys);
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
  return deleted;
}

/** What a scripted producer process does (passed as JSON in `FAWN_PRODUCER_SCRIPT`). */
export interface ProducerScript {
  url: string;
  keyPrefix: string;
  runId: string;
  /** Defaults to the bridge's own `host:pid`. */
  instanceName?: string;
  queueMaxSize?: number;
  /** Events published before the producer reports `ready` and waits for `continue` on stdin. */
  before: number;
  /** Events published after `continue`, then the end marker. */
  after: number;
}

/** One JSON line on the producer's stdout. */
export type ProducerReport = { type: "ready"; ids: string[] } | { type: "done"; ids: string[] };

/**
 * The body of a producer child process (see the cross-process test): runs a run's producer side
 * through a real RedisStreamBridge, the way a worker and its finalizer do, pausing once so the
 * test can subscribe mid-stream. The child imports this
 * file, so it must stay free of vitest.
 */
export async function runScriptedProducer(): Promise<void> {
  const script = JSON.parse(process.env.FAWN_PRODUCER_SCRIPT ?? "") as ProducerScript;
  const report = (line: ProducerReport): void => {
    process.stdout.write(`${JSON.stringify(line)}\n`);
  };
  const bridge = new RedisStreamBridge({
    url: script.url,
    keyPrefix: script.keyPrefix,
    instanceName: script.instanceName,
    queueMaxSize: script.queueMaxSize,
  });
  const { runId } = script;
  const ids: string[] = [];
  try {
    await bridge.startProducerLease(runId);
    for (let n = 0; n < script.before; n += 1) {
      ids.push(await bridge.publish(runId, "values", { n, pid: process.pid }));
    }
    report({ type: "ready", ids: [...ids] });
    const input = createInterface({ input: process.stdin });
    for await (const line of input) if (line.trim() === "continue") break;
    input.close();
    for (let n = script.before; n < script.before + script.after; n += 1) {
      ids.push(await bridge.publish(runId, "values", { n, pid: process.pid }));
      // Yield to the event loop between events so the stream grows while the test reads it.
      await new Promise((resolve) => setImmediate(resolve));
    }
    bridge.transferProducerLease(runId, { name: `run-finalization-${runId}` });
    await bridge.publishEnd(runId);
    await bridge.finishProducerLease(runId);
    report({ type: "done", ids });
  } finally {
    await bridge.close();
  }
}

/** A `redis-server` of a test's own (never the shared one), without persistence. */
export interface PrivateRedis {
  readonly url: string;
  /** Kills the server (SIGKILL) and starts a fresh one on the same port: every key is gone. */
  restartEmpty(): Promise<void>;
  stop(): Promise<void>;
}

/** A port the kernel just handed out and released (another process could take it: rare). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no TCP port assigned");
  return address.port;
}

/** Starts `redis-server` on `port` and resolves once it answers PING. */
async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { cwd: tmpdir(), stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let spawnError: Error | undefined;
  child.once("error", (error) => {
    spawnError = error;
  });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !spawnError) {
    if (child.exitCode !== null) break;
    const probe = openTestRedis(`redis://127.0.0.1:${port}`);
    try {
      await probe.connect();
      await probe.ping();
      return child;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      probe.disconnect();
    }
  }
  await kill(child);
  throw new Error(`redis-server on port ${port} did not start: ${spawnError?.message ?? stderr}`);
}

async function kill(child: ChildProcess): Promise<void> {
  // No pid: it never started. exitCode/signalCode: it already exited.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

/**
 * Starts a private `redis-server` on a spare port (`--save "" --appendonly no`), for tests that
 * kill or restart Redis. Throws when `redis-server` is missing in CI; elsewhere returns null
 * after a loud warning, like `requireTestRedis`.
 */
export async function startPrivateRedis(): Promise<PrivateRedis | null> {
  const port = await freePort();
  let child: ChildProcess;
  try {
    child = await startRedisServer(port);
  } catch (error) {
    const reason = `cannot start redis-server (${error instanceof Error ? error.message : String(error)})`;
    if (inCi()) throw new Error(`A private redis-server is required in CI: ${reason}`);
    warnSkipped(reason);
    return null;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async restartEmpty() {
      await kill(child);
      child = await startRedisServer(port);
    },
    stop: () => kill(child),
  };
}
