/**
 * Port of seed 002 (`blocking_io/test_aio_sandbox_get.py`, indexed in `test/seeds/README.md`):
 * the provider's `get()` must not do blocking IO, and the async acquire path must keep every
 * filesystem and store touch off the event loop. Test names are the seed's.
 *
 * Mapping to Node: all JavaScript runs on the loop thread, so "offload to a worker thread" becomes
 * "reach IO only through async APIs" (fs/promises, async child_process, ioredis). The gate
 * (`withBlockingIoGate`) makes every synchronous fs / child_process call throw while the code under
 * test runs — Blockbuster's role. The blocking probe store does real synchronous file IO in every
 * method, so any store call on a gated path trips the gate; the meta-tests prove the gate has teeth.
 */
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FawnPaths } from "../../src/core/paths.js";
import {
  type AcquireLayer,
  ManagedSandboxProvider,
} from "../../src/sandbox/lifecycle/managed-provider.js";
import {
  deriveSandboxId,
  sandboxIdForThread,
  threadSkillsViewDir,
} from "../../src/sandbox/lifecycle/sandbox-id.js";
import { FileOwnershipStore } from "../../src/sandbox/ownership/file-ownership-store.js";
import type {
  RenewOutcome,
  SandboxOwnershipStore,
} from "../../src/sandbox/ownership/ownership-store.js";
import {
  allowBlockingIo,
  BlockingIoError,
  withBlockingIoGate,
} from "../helpers/blocking-io-gate.js";
import { StubBackend, stubInstance } from "../sandbox/helpers/stub-backend.js";

/** Ownership store whose every operation does real blocking file IO. */
class BlockingProbeStore implements SandboxOwnershipStore {
  readonly ownerId = "worker-blockingio";
  readonly supportsCrossProcess = true;
  calls = 0;

  constructor(private readonly probePath: string) {
    allowBlockingIo(() => writeFileSync(probePath, "owner", "utf8"));
  }

  /** Mirrors what a real store does on this call: sync IO the strict gate sees. */
  private blockingTouch(): string {
    this.calls += 1;
    return realpathSync(this.probePath) && existsSync(this.probePath) ? "owner" : "";
  }

  async take(): Promise<boolean> {
    this.blockingTouch();
    return true;
  }

  async claim(): Promise<boolean> {
    this.blockingTouch();
    return true;
  }

  async renew(): Promise<RenewOutcome> {
    this.blockingTouch();
    return "renewed";
  }

  async release(): Promise<void> {
    this.blockingTouch();
  }

  async owner(): Promise<string | null> {
    return this.blockingTouch();
  }

  async close(): Promise<void> {}
}

/** Counts calls to a real store (so an anchor cannot pass without reaching it). */
function countingStore(store: SandboxOwnershipStore): SandboxOwnershipStore & { takes: number } {
  const counted = {
    takes: 0,
    ownerId: store.ownerId,
    supportsCrossProcess: store.supportsCrossProcess,
    take: (id: string) => {
      counted.takes += 1;
      return store.take(id);
    },
    claim: (id: string, options?: { forDestroy?: boolean }) => store.claim(id, options),
    renew: (id: string) => store.renew(id),
    release: (id: string) => store.release(id),
    owner: (id: string) => store.owner(id),
    close: () => store.close(),
  };
  return counted;
}

describe("seed 002: provider.get() and async acquire never block the event loop", () => {
  let home: string;
  let paths: FawnPaths;
  let backend: StubBackend;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-seed-002-"));
    // FAWN_HOME is the test's own folder: thread dirs and lock files stay inside it.
    paths = new FawnPaths(home);
    backend = new StubBackend();
  });

  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  /** A provider with no timers (no idle checker, no renewal), like the seed's `__new__` build. */
  function makeProvider(
    ownership: SandboxOwnershipStore,
    extra: { onAcquireLayer?: (layer: AcquireLayer, context: { sandboxId?: string }) => void } = {},
  ): ManagedSandboxProvider {
    return new ManagedSandboxProvider({
      backend,
      paths,
      ownership,
      idleTimeoutMs: 600_000,
      replicas: 3,
      startTimers: false,
      ...extra,
    });
  }

  it("test_get_does_no_blocking_io_on_event_loop", async () => {
    const probe = new BlockingProbeStore(join(home, "ownership-probe"));
    const provider = makeProvider(probe);
    provider.registry.activate(
      "sb-blockingio",
      stubInstance("sb-blockingio"),
      { userId: "u1", threadId: "t-get" },
      Date.now(),
    );
    // If get() touches the ownership store, the probe's file IO trips the gate.
    await withBlockingIoGate(() => {
      expect(provider.get("sb-blockingio")).not.toBeNull();
      expect(provider.get("sb-missing")).toBeNull();
    });
    expect(probe.calls).toBe(0);
  });

  it("test_blocking_probe_store_actually_trips_the_gate", async () => {
    // Meta-check: the probe has teeth, so the anchor above is not vacuous.
    const probe = new BlockingProbeStore(join(home, "ownership-probe"));
    const provider = makeProvider(probe);
    await withBlockingIoGate(async () => {
      await expect(provider.publishOwnership("sb-blockingio")).rejects.toBeInstanceOf(
        BlockingIoError,
      );
    });
    // The store was reached (and blocked), not skipped.
    expect(probe.calls).toBe(1);
  });

  it("test_async_acquire_offloads_ownership_publish", async () => {
    // Registration publishes ownership (a store call) on every discover/create; it must go
    // through the store's async API. The file store does real file IO, all of it fs/promises.
    const store = countingStore(
      new FileOwnershipStore({ dir: join(home, "leases"), ownerId: "worker-async" }),
    );
    const provider = makeProvider(store);
    backend.discoverable.add("sb-async");
    const sandboxId = await withBlockingIoGate(() =>
      provider.discoverOrCreateWithLock({ userId: "u1", threadId: "t-async" }, "sb-async"),
    );
    expect(sandboxId).toBe("sb-async");
    expect(backend.discovered).toEqual(["sb-async"]);
    expect(store.takes).toBe(1);
    expect(await store.owner("sb-async")).toBe("worker-async");
    expect(provider.get("sb-async")).not.toBeNull();
  });

  it("test_async_lock_path_resolution_stays_off_the_loop", async () => {
    // The lock path comes from FAWN_HOME and the thread folders (created on the way); reaching
    // the lock-file opener under the gate proves none of that did sync IO.
    class ReachedLockFile extends Error {}
    const opened: string[] = [];
    const provider = new ManagedSandboxProvider({
      backend,
      paths,
      ownership: new BlockingProbeStore(join(home, "ownership-probe")),
      startTimers: false,
      openLockFile: async (lockPath) => {
        opened.push(lockPath);
        throw new ReachedLockFile();
      },
    });
    const scope = { userId: "u1", threadId: "t-lock" };
    await withBlockingIoGate(async () => {
      await expect(provider.discoverOrCreateWithLock(scope, "sb-lock")).rejects.toBeInstanceOf(
        ReachedLockFile,
      );
    });
    expect(opened).toEqual([join(paths.threadDir(scope), "sb-lock.lock")]);
    expect((await stat(paths.threadPaths(scope).workspaceDir)).isDirectory()).toBe(true);
  });

  it("test_blocking_probe_thread_dir_actually_trips_the_gate", async () => {
    // Meta-check: resolving the thread folder through the filesystem on the loop is caught.
    // (FawnPaths.threadDir itself is pure string work and stays allowed.)
    const scope = { userId: "u1", threadId: "aio-sandbox-lock-wait" };
    await withBlockingIoGate(() => {
      const threadDir = paths.threadDir(scope);
      expect(() => realpathSync(paths.home)).toThrow(BlockingIoError);
      expect(() => existsSync(threadDir)).toThrow(BlockingIoError);
    });
  });

  describe.each([
    ["default-id", false],
    ["policy-scoped-id", true],
  ])("test_async_acquire_derives_sandbox_id_off_the_loop [%s]", (_label, skillsView) => {
    it("reaches the warm-pool layer with the id the on-disk state implies", async () => {
      const scope = { userId: "u1", threadId: "t-id" };
      if (skillsView) await mkdir(threadSkillsViewDir(paths, scope), { recursive: true });
      const expectedId = await sandboxIdForThread(paths, scope);
      expect(expectedId).toBe(deriveSandboxId(scope, { skillsView }));
      expect(expectedId === deriveSandboxId(scope, { skillsView: false })).toBe(!skillsView);

      class ReachedWarmPool extends Error {}
      const reclaimed: Array<string | undefined> = [];
      const provider = makeProvider(new BlockingProbeStore(join(home, "ownership-probe")), {
        onAcquireLayer: (layer, context) => {
          if (layer !== "warm_pool") return;
          reclaimed.push(context.sandboxId);
          throw new ReachedWarmPool();
        },
      });
      // Red before the fix: a sync stat of skills_view would trip the gate before the warm pool.
      await withBlockingIoGate(async () => {
        await expect(provider.acquire("t-id", "u1")).rejects.toBeInstanceOf(ReachedWarmPool);
      });
      expect(reclaimed).toEqual([expectedId]);
    });
  });

  it("test_blocking_probe_sandbox_id_actually_trips_the_gate", async () => {
    // Meta-check: deriving the id with a synchronous look at skills_view is caught on the loop.
    const scope = { userId: "u1", threadId: "t-id" };
    await withBlockingIoGate(() => {
      expect(() =>
        deriveSandboxId(scope, { skillsView: existsSync(threadSkillsViewDir(paths, scope)) }),
      ).toThrow(BlockingIoError);
    });
  });
});
