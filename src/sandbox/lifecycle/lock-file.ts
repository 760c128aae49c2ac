import { randomBytes } from "node:crypto";
import { link, mkdir, open, readFile, rename, stat, unlink, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { sleep } from "../../core/async/deadline.js";
import { DeadlineExceededError } from "../../core/errors.js";
import { errnoCode } from "../files/fs-error-mapping.js";

export interface HeldLock {
  readonly path: string;
  /** Removes the lock file if it is still ours; idempotent. */
  release(): Promise<void>;
}

export interface LockFileOptions {
  /** A lock not refreshed for this long (or whose process on this host is gone) may be broken. */
  staleMs?: number;
  /** Give up waiting after this long. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Opens (takes) a cross-process lock file; injectable so tests can stop at this step. */
export type LockFileOpener = (path: string, options?: LockFileOptions) => Promise<HeldLock>;

interface LockContent {
  token: string;
  pid: number;
  host: string;
}

const DEFAULT_STALE_MS = 15_000;
const DEFAULT_TIMEOUT_MS = 60_000;
const MIN_RETRY_MS = 5;
const MAX_RETRY_MS = 200;

/**
 * A cross-process lock as a file created with `O_EXCL` (`wx`), only with fs/promises: waiting is
 * a retry with backoff, never a blocking `flock` on the event loop. The holder refreshes the
 * file's mtime while it holds it, so a lock whose holder died (its pid is gone on this host, or
 * its mtime is older than `staleMs` — the case for another host on a shared disk) is broken.
 */
export const acquireLockFile: LockFileOpener = async (path, options = {}) => {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const mine: LockContent = {
    token: randomBytes(12).toString("hex"),
    pid: process.pid,
    host: hostname(),
  };
  let delay = MIN_RETRY_MS;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      const handle = await open(path, "wx");
      try {
        await handle.writeFile(JSON.stringify(mine));
      } finally {
        await handle.close();
      }
      return holdLock(path, mine.token, staleMs);
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT") {
        await mkdir(dirname(path), { recursive: true });
        continue;
      }
      if (code !== "EEXIST") throw error;
    }
    const holder = await inspectLock(path, staleMs);
    if (holder === "gone") continue;
    if (holder.stale) {
      await breakStaleLock(path, holder.raw);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new DeadlineExceededError(
        `Timed out waiting for lock ${path} (held by ${holder.raw.slice(0, 200) || "an unknown holder"}).`,
      );
    }
    // Jitter keeps contending processes from retrying in lockstep.
    await sleep(delay + Math.floor(Math.random() * delay), options.signal);
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  }
};

function holdLock(path: string, token: string, staleMs: number): HeldLock {
  const heartbeat = setInterval(
    () => {
      const now = new Date();
      utimes(path, now, now).catch(() => undefined);
    },
    Math.max(50, Math.floor(staleMs / 3)),
  );
  heartbeat.unref();
  let released: Promise<void> | undefined;
  return {
    path,
    release() {
      released ??= (async () => {
        clearInterval(heartbeat);
        const raw = await readFile(path, "utf8").catch(() => "");
        // Someone judged us dead and took over: their lock is not ours to remove.
        if (parseLock(raw)?.token === token) await unlink(path).catch(() => undefined);
      })();
      return released;
    },
  };
}

async function inspectLock(
  path: string,
  staleMs: number,
): Promise<"gone" | { stale: boolean; raw: string }> {
  let raw: string;
  let mtimeMs: number;
  try {
    [raw, mtimeMs] = await Promise.all([
      readFile(path, "utf8"),
      stat(path).then((info) => info.mtimeMs),
    ]);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return "gone";
    throw error;
  }
  const content = parseLock(raw);
  const expired = Date.now() - mtimeMs > staleMs;
  const holderGone =
    content !== null && content.host === hostname() && !isProcessAlive(content.pid);
  return { stale: expired || holderGone, raw };
}

/**
 * Moves the stale file aside (atomic), then checks it is the file we judged stale. If a fresh
 * lock was created in between and we moved that one instead, it is linked back (only if no one
 * else holds the name by now) so its holder keeps it.
 */
async function breakStaleLock(path: string, judgedRaw: string): Promise<void> {
  const aside = `${path}.stale-${randomBytes(6).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return;
    throw error;
  }
  const movedRaw = await readFile(aside, "utf8").catch(() => judgedRaw);
  if (movedRaw !== judgedRaw) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

function parseLock(raw: string): LockContent | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return null;
    const { token, pid, host } = value as Record<string, unknown>;
    if (typeof token !== "string" || typeof pid !== "number" || typeof host !== "string") {
      return null;
    }
    return { token, pid, host };
  } catch {
    return null;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return errnoCode(error) === "EPERM";
  }
}
