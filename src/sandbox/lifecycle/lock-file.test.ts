import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DeadlineExceededError } from "../../core/errors.js";
import { acquireLockFile } from "./lock-file.js";

describe("acquireLockFile", () => {
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-lock-"));
    path = join(dir, "sub", "x.lock");
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("lets one holder in at a time", async () => {
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        const lock = await acquireLockFile(path);
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inside -= 1;
        await lock.release();
      }),
    );
    expect(most).toBe(1);
  });

  it("breaks a lock whose process is gone, and one not refreshed for too long", async () => {
    await acquireLockFile(path).then((lock) => lock.release());
    await writeFile(path, JSON.stringify({ token: "dead", pid: 2 ** 22 + 7, host: hostname() }));
    const first = await acquireLockFile(path, { timeoutMs: 2_000 });
    await first.release();
    await writeFile(path, JSON.stringify({ token: "far", pid: 1, host: "another-host" }));
    const old = new Date(Date.now() - 60_000);
    await utimes(path, old, old);
    const second = await acquireLockFile(path, { timeoutMs: 2_000, staleMs: 10_000 });
    await second.release();
  });

  it("times out behind a live holder, and gives up when its signal aborts", async () => {
    const held = await acquireLockFile(path);
    await expect(acquireLockFile(path, { timeoutMs: 100 })).rejects.toBeInstanceOf(
      DeadlineExceededError,
    );
    const reason = new Error("stop");
    await expect(acquireLockFile(path, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await held.release();
  });

  it("never removes a lock that is no longer its own", async () => {
    const held = await acquireLockFile(path);
    await writeFile(
      path,
      JSON.stringify({ token: "someone-else", pid: process.pid, host: hostname() }),
    );
    await held.release();
    expect(JSON.parse(await readFile(path, "utf8")).token).toBe("someone-else");
  });
});
