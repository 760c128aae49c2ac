/**
 * A run hands its thread's sandbox back when it ends — success, error or cancel — like the
 * reference's SandboxMiddleware.after_agent: the finalizer's `sandbox_release` stage parks the
 * sandbox in the provider's warm pool (no longer active), and the thread's next run reclaims the
 * same instance. Driven through the served gateway with the LangGraph SDK, on the local provider
 * and, where it works, bubblewrap.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER_ID, FawnPaths } from "../../src/core/paths.js";
import { ManagedSandboxProvider } from "../../src/sandbox/lifecycle/managed-provider.js";
import { MemoryOwnershipStore } from "../../src/sandbox/ownership/memory-ownership-store.js";
import { type ServedGateway, startServedGateway } from "../e2e/helpers/served-gateway.js";
import { Latch } from "../helpers/latch.js";
import { requireBwrap } from "./helpers/require-bwrap.js";
import { StubBackend } from "./helpers/stub-backend.js";

const bwrapWorks = await requireBwrap();

const workspaceFile = (name: string) => `/mnt/user-data/workspace/${name}`;
const writeCall = (name: string) => ({
  name: "write_file",
  args: { description: name, path: workspaceFile(name), content: `${name}\n` },
});

const SCRIPT = [
  {
    match: "^release-success",
    turns: [{ tool_calls: [writeCall("success.txt")] }, { content: "Written." }],
  },
  // Every turn calls a tool again, so a small recursion limit fails the run after the first step.
  { match: "^release-error", turns: [{ tool_calls: [writeCall("error.txt")] }] },
  // The answer after the tool step streams slowly: the run is cancelled while it does.
  {
    match: "^release-cancel",
    stream_delay_ms: 200,
    turns: [
      { tool_calls: [writeCall("cancel.txt")] },
      { content: Array.from({ length: 300 }, (_, i) => `word${i}`).join(" ") },
    ],
  },
  { turns: [{ content: "ok" }] },
];

interface SandboxState {
  sandbox: { sandbox_id: string } | null;
}

/** Polls a condition (not a timing assertion: only how long to wait for it at most). */
async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 30_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const PROVIDERS = [
  { kind: "local", enabled: true },
  { kind: "bwrap", enabled: bwrapWorks },
] as const;

for (const { kind, enabled } of PROVIDERS) {
  describe.runIf(enabled)(`a run releases its sandbox when it ends (${kind} provider)`, () => {
    let server: ServedGateway;
    let client: Client;
    let provider: ManagedSandboxProvider;

    beforeAll(async () => {
      server = await startServedGateway({
        config: (home) => ({
          // Memory stores: this suite is about the sandbox, not storage.
          database: { url: "memory:" },
          sandbox: { use: kind },
          models: [
            { name: "release", use: "scripted", model: "release", script: join(home, "s.json") },
          ],
        }),
      });
      await writeFile(join(server.home, "s.json"), JSON.stringify(SCRIPT));
      client = server.client();
      if (!(server.fawn.sandbox instanceof ManagedSandboxProvider)) {
        throw new Error("expected the managed sandbox provider");
      }
      provider = server.fawn.sandbox;
      expect(provider.kind).toBe(kind);
    });

    afterAll(async () => {
      await server?.close();
    });

    const scopeOf = (threadId: string) => ({ userId: DEFAULT_USER_ID, threadId });

    async function recordedSandboxId(threadId: string): Promise<string> {
      const state = await client.threads.getState<SandboxState>(threadId);
      const id = state.values.sandbox?.sandbox_id;
      if (!id) throw new Error("the run recorded no sandbox id in the thread state");
      return id;
    }

    /** Released: not active for the thread any more, parked warm for its next run. */
    function expectReleased(threadId: string, sandboxId: string): void {
      expect(provider.registry.activeIdFor(scopeOf(threadId))).toBeUndefined();
      expect(provider.registry.active.has(sandboxId)).toBe(false);
      expect(provider.registry.warm.get(sandboxId)?.scope).toEqual(scopeOf(threadId));
      // `get` answers only active sandboxes: a released id opens nothing.
      expect(provider.get(sandboxId)).toBeNull();
    }

    async function startRun(threadId: string, text: string, config: Record<string, unknown> = {}) {
      return client.runs.create(threadId, "lead_agent", {
        input: { messages: [{ role: "user", content: text }] },
        config: { ...config, configurable: { model_name: "release" } },
      });
    }

    it("success: released at the end, and the thread's next run reclaims the same sandbox", async () => {
      const thread = await client.threads.create();
      const first = await startRun(thread.thread_id, "release-success one");
      await client.runs.join(thread.thread_id, first.run_id);
      expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("success");
      const sandboxId = await recordedSandboxId(thread.thread_id);
      expectReleased(thread.thread_id, sandboxId);
      const parked = provider.registry.warm.get(sandboxId)?.instance;

      const second = await startRun(thread.thread_id, "release-success two");
      await client.runs.join(thread.thread_id, second.run_id);
      expect((await client.runs.get(thread.thread_id, second.run_id)).status).toBe("success");
      expect(await recordedSandboxId(thread.thread_id)).toBe(sandboxId);
      expectReleased(thread.thread_id, sandboxId);
      // Reclaimed from the warm pool, not created again.
      expect(provider.registry.warm.get(sandboxId)?.instance).toBe(parked);
    });

    it("error: a run that fails after using its sandbox releases it", async () => {
      const thread = await client.threads.create();
      const run = await startRun(thread.thread_id, "release-error", { recursion_limit: 4 });
      await client.runs.join(thread.thread_id, run.run_id);
      const ended = await client.runs.get(thread.thread_id, run.run_id);
      expect(ended.status).toBe("error");
      expectReleased(thread.thread_id, await recordedSandboxId(thread.thread_id));
    });

    it("cancel: a run cancelled while its sandbox is active releases it", async () => {
      const thread = await client.threads.create();
      const run = await startRun(thread.thread_id, "release-cancel");
      const scope = scopeOf(thread.thread_id);
      await waitUntil(
        () => provider.registry.activeIdFor(scope) !== undefined,
        "the run to acquire its sandbox",
      );
      const sandboxId = provider.registry.activeIdFor(scope) ?? "";
      await client.runs.cancel(thread.thread_id, run.run_id, true);
      await client.runs.join(thread.thread_id, run.run_id);
      expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
      expectReleased(thread.thread_id, sandboxId);
    });
  });
}

describe("ManagedSandboxProvider.releaseThread", () => {
  let home = "";
  let provider: ManagedSandboxProvider;
  let backend: StubBackend;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-release-"));
  });

  afterAll(async () => {
    await provider?.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  function makeProvider(): ManagedSandboxProvider {
    backend = new StubBackend();
    provider = new ManagedSandboxProvider({
      backend,
      paths: new FawnPaths(home),
      ownership: new MemoryOwnershipStore({ ownerId: "me" }),
      startTimers: false,
    });
    return provider;
  }

  it("parks only the thread's own sandbox, and is a no-op for a thread holding none", async () => {
    const p = makeProvider();
    const mine = await p.acquire("thread-a", "alice");
    const other = await p.acquire("thread-b", "alice");
    await p.releaseThread("thread-none", "alice");
    await p.releaseThread("thread-a", "bob");
    expect([...p.registry.active.keys()].sort()).toEqual([mine, other].sort());

    await p.releaseThread("thread-a", "alice");
    expect(p.registry.warm.has(mine)).toBe(true);
    expect(p.registry.active.has(other)).toBe(true);
    // Reacquiring reclaims the parked instance: no second create.
    expect(await p.acquire("thread-a", "alice")).toBe(mine);
    expect(backend.created.filter((id) => id === mine)).toHaveLength(1);
    await p.shutdown();
  });

  it("covers an acquire still settling (a tool call abandoned by a cancel)", async () => {
    const p = makeProvider();
    const gate = new Latch();
    backend.createGate = gate.wait();
    const abandoned = new AbortController();
    const acquiring = p.acquire("thread-c", "alice", { signal: abandoned.signal });
    abandoned.abort(new Error("cancelled"));
    await expect(acquiring).rejects.toThrow("cancelled");

    const released = p.releaseThread("thread-c", "alice");
    gate.set();
    await released;
    expect(p.registry.activeIdFor({ userId: "alice", threadId: "thread-c" })).toBeUndefined();
    expect(p.registry.warm.size).toBe(1);
    await p.shutdown();
  });
});
