/**
 * The shared sandbox lifecycle (ManagedSandboxProvider) with a stub backend and a manual clock:
 * single flight, warm pool, identity fail-closed, idle reaper, soft replicas cap, lease renewal
 * and the rule that a peer's sandbox is forgotten, never stopped.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/core/clock.js";
import { FawnPaths } from "../../src/core/paths.js";
import {
  ManagedSandboxProvider,
  type ManagedSandboxProviderOptions,
} from "../../src/sandbox/lifecycle/managed-provider.js";
import { sandboxIdForThread } from "../../src/sandbox/lifecycle/sandbox-id.js";
import { FileOwnershipStore } from "../../src/sandbox/ownership/file-ownership-store.js";
import {
  MemoryLeaseTable,
  MemoryOwnershipStore,
} from "../../src/sandbox/ownership/memory-ownership-store.js";
import {
  SandboxBeingDestroyedError,
  SandboxIdentityCollisionError,
} from "../../src/sandbox/sandbox-errors.js";
import { StubBackend, stubInstance } from "./helpers/stub-backend.js";

const timing = { renewalIntervalMs: 1_000, ttlMultiplier: 4 };

describe("ManagedSandboxProvider lifecycle", () => {
  let home: string;
  let paths: FawnPaths;
  let clock: ManualClock;
  let table: MemoryLeaseTable;
  let backend: StubBackend;
  let peer: MemoryOwnershipStore;
  let providers: ManagedSandboxProvider[];

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-lifecycle-"));
    paths = new FawnPaths(home);
    clock = new ManualClock();
    table = new MemoryLeaseTable();
    backend = new StubBackend();
    peer = new MemoryOwnershipStore({ ownerId: "peer", clock, table, timing });
    providers = [];
  });

  afterEach(async () => {
    await Promise.all(providers.map((provider) => provider.shutdown()));
    await rm(home, { recursive: true, force: true });
  });

  function makeProvider(options: Partial<ManagedSandboxProviderOptions> = {}) {
    const ownership = new MemoryOwnershipStore({ ownerId: "me", clock, table, timing });
    const provider = new ManagedSandboxProvider({
      backend,
      paths,
      ownership,
      clock,
      startTimers: false,
      idleTimeoutMs: 60_000,
      replicas: 3,
      ...options,
    });
    providers.push(provider);
    return { provider, ownership };
  }

  it("creates one sandbox for concurrent acquires of one thread, and owns it", async () => {
    const { provider } = makeProvider();
    const ids = await Promise.all([1, 2, 3, 4].map(() => provider.acquire("t-1", "alice")));
    expect(new Set(ids).size).toBe(1);
    expect(backend.created).toEqual([ids[0]]);
    expect(await peer.owner(ids[0] ?? "")).toBe("me");
    expect(ids[0]).toBe(await sandboxIdForThread(paths, { userId: "alice", threadId: "t-1" }));
  });

  it("adopts a running sandbox it discovers instead of creating one", async () => {
    const { provider } = makeProvider();
    const id = await sandboxIdForThread(paths, { userId: "alice", threadId: "t-1" });
    backend.discoverable.add(id);
    expect(await provider.acquire("t-1", "alice")).toBe(id);
    expect(backend.discovered).toEqual([id]);
    expect(backend.created).toEqual([]);
  });

  it("parks a released sandbox warm and hands the same one back to its thread", async () => {
    const { provider } = makeProvider();
    const id = await provider.acquire("t-1", "alice");
    const sandbox = provider.get(id);
    await provider.release(id);
    expect(provider.get(id)).toBeNull();
    expect(provider.registry.warm.has(id)).toBe(true);
    expect(await provider.acquire("t-1", "alice")).toBe(id);
    expect(provider.get(id)).toBe(sandbox);
    expect(backend.created).toHaveLength(1);
  });

  it("fails closed when an id is tracked for another thread", async () => {
    const { provider } = makeProvider();
    const id = await sandboxIdForThread(paths, { userId: "alice", threadId: "t-1" });
    provider.registry.activate(id, stubInstance(id), { userId: "mallory", threadId: "t-x" }, 0);
    await expect(provider.acquire("t-1", "alice")).rejects.toBeInstanceOf(
      SandboxIdentityCollisionError,
    );
  });

  it("reaps sandboxes idle past the timeout, keeps busy ones, and releases their leases", async () => {
    const { provider } = makeProvider();
    const idle = await provider.acquire("t-idle", "alice");
    const busy = await provider.acquire("t-busy", "alice");
    const parked = await provider.acquire("t-parked", "alice");
    await provider.release(parked);
    clock.advance(59_000);
    provider.get(busy);
    clock.advance(2_000);
    await provider.reapIdle();
    expect(backend.instances.get(idle)?.destroyed).toBe(true);
    expect(backend.instances.get(parked)?.destroyed).toBe(true);
    expect(backend.instances.get(busy)?.destroyed).toBe(false);
    expect(provider.get(idle)).toBeNull();
    expect(provider.get(busy)).not.toBeNull();
    expect(await peer.owner(idle)).toBeNull();
  });

  it("leaves a sandbox alone while a command runs in it, however long ago get() was", async () => {
    const { provider } = makeProvider();
    const id = await provider.acquire("t-1", "alice");
    const instance = backend.instances.get(id);
    if (instance) instance.sandbox.busy = true;
    clock.advance(120_000);
    await provider.reapIdle();
    expect(instance?.destroyed).toBe(false);
    if (instance) instance.sandbox.busy = false;
    await provider.reapIdle();
    expect(instance?.destroyed).toBe(true);
  });

  it("lets one caller give up on a shared acquire without failing the others", async () => {
    const { provider } = makeProvider();
    let open: () => void = () => undefined;
    backend.createGate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const controller = new AbortController();
    const impatient = provider.acquire("t-1", "alice", { signal: controller.signal });
    const patient = provider.acquire("t-1", "alice");
    controller.abort(new Error("client went away"));
    await expect(impatient).rejects.toThrow("client went away");
    open();
    expect(provider.get(await patient)).not.toBeNull();
  });

  it("never stops a sandbox a peer owns: the reaper only forgets it", async () => {
    const { provider } = makeProvider();
    const id = await provider.acquire("t-1", "alice");
    clock.advance(61_000);
    await peer.take(id);
    await provider.reapIdle();
    expect(backend.instances.get(id)?.destroyed).toBe(false);
    expect(provider.get(id)).toBeNull();
    expect(await peer.owner(id)).toBe("peer");
  });

  it("evicts the oldest warm sandbox at the replicas cap, but never an active one", async () => {
    const { provider } = makeProvider({ replicas: 2 });
    const first = await provider.acquire("t-1", "alice");
    await provider.release(first);
    clock.advance(1_000);
    const second = await provider.acquire("t-2", "alice");
    await provider.release(second);
    const third = await provider.acquire("t-3", "alice");
    expect(backend.instances.get(first)?.destroyed).toBe(true);
    expect(backend.instances.get(second)?.destroyed).toBe(false);
    // Soft cap: with nothing warm left to evict, a new sandbox is created anyway.
    await provider.acquire("t-4", "alice");
    expect(backend.instances.get(third)?.destroyed).toBe(false);
    expect(backend.created).toHaveLength(4);
  });

  it("renews in the background: re-claims a lapsed lease, forgets one a peer took", async () => {
    const { provider } = makeProvider();
    const lapsed = await provider.acquire("t-1", "alice");
    const lost = await provider.acquire("t-2", "alice");
    clock.advance(timing.renewalIntervalMs * timing.ttlMultiplier + 1);
    await peer.take(lost);
    await provider.renewLeases();
    expect(await peer.owner(lapsed)).toBe("me");
    expect(provider.get(lapsed)).not.toBeNull();
    expect(provider.get(lost)).toBeNull();
    expect(backend.instances.get(lost)?.destroyed).toBe(false);
  });

  it("refuses to hand out a sandbox a peer is tearing down", async () => {
    const { provider } = makeProvider();
    const id = await sandboxIdForThread(paths, { userId: "alice", threadId: "t-1" });
    await peer.claim(id, { forDestroy: true });
    const error = await provider.acquire("t-1", "alice").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxBeingDestroyedError);
    expect(backend.instances.get(id)?.destroyed).toBe(true);
  });

  it("replaces a sandbox that died while active", async () => {
    const { provider } = makeProvider();
    const id = await provider.acquire("t-1", "alice");
    const dead = backend.instances.get(id);
    if (dead) dead.alive = false;
    expect(await provider.acquire("t-1", "alice")).toBe(id);
    expect(backend.created).toEqual([id, id]);
    expect(provider.get(id)).not.toBe(dead?.sandbox);
  });

  it("shuts down once: destroys what it owns, drops leases, refuses new acquires", async () => {
    const { provider } = makeProvider();
    const id = await provider.acquire("t-1", "alice");
    await Promise.all([provider.shutdown(), provider.shutdown()]);
    expect(backend.instances.get(id)?.destroyed).toBe(true);
    expect(await peer.owner(id)).toBeNull();
    await expect(provider.acquire("t-2", "alice")).rejects.toThrow(/shut down/);
  });

  it("creates one sandbox when two providers (as two processes would) race for a thread", async () => {
    const dir = join(home, "leases");
    const make = (ownerId: string) =>
      new ManagedSandboxProvider({
        backend,
        paths,
        ownership: new FileOwnershipStore({ dir, ownerId, timing }),
        startTimers: false,
      });
    const [a, b] = [make("proc-a"), make("proc-b")];
    providers.push(a, b);
    // The second process finds the first one's sandbox (a container, say) by its id.
    const created = backend.create.bind(backend);
    backend.create = async (spec) => {
      const instance = await created(spec);
      backend.discoverable.add(spec.sandboxId);
      return instance;
    };
    const [idA, idB] = await Promise.all([a.acquire("t-1", "alice"), b.acquire("t-1", "alice")]);
    expect(idA).toBe(idB);
    expect(backend.created).toHaveLength(1);
    expect(backend.discovered).toHaveLength(1);
  });
});
