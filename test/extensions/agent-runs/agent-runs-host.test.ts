/**
 * The plugin run host's refusals and guarantees, over the real runtime: every failure is an
 * `AgentRunError` with the status the same HTTP request would get.
 */
import { readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFawnGateway, gatewayDepsOf } from "../../../src/app/fawn-gateway.js";
import { AgentRunError } from "../../../src/core/errors.js";
import { DEFAULT_USER_ID, FawnPaths } from "../../../src/core/paths.js";
import { createGatewayServices } from "../../../src/gateway/app.js";
import { AgentRunsHost } from "../../../src/gateway/extensions/agent-runs-host.js";
import {
  agentRunsRuntimePerTest,
  bytesOf,
  OWNER,
  userInput,
} from "../../seeds/fixtures/agent-runs-runtime.js";

const runtime = agentRunsRuntimePerTest();

function uploadsOf(threadId: string, userId = OWNER): string {
  return new FawnPaths(runtime().home).threadPaths({ threadId, userId }).uploadsDir;
}

describe("AgentRuns host", () => {
  it("gives handles to sessions, runs and services, none to API tokens", () => {
    for (const via of ["session", "disabled", "run", "service"] as const) {
      expect(runtime().fawn.agentRuns.bind({ userId: OWNER, via })).not.toBeNull();
    }
    expect(runtime().fawn.agentRuns.bind({ userId: OWNER, via: "token" })).toBeNull();
  });

  it("binds a namespace once: same object for the same one, 422 for another or a bad one", async () => {
    const bound = runtime().runs.forPlugin("community.agent-teams");
    expect(bound.forPlugin("community.agent-teams")).toBe(bound);
    expect(() => bound.forPlugin("other")).toThrow("Agent run handle is already bound to a plugin");
    for (const bad of ["", "a:b", "x".repeat(97)]) {
      expect(() => runtime().runs.forPlugin(bad)).toThrow(
        expect.objectContaining({ status: 422, message: "Invalid plugin namespace" }),
      );
    }
  });

  it("stores plugin keys in the plugin's namespace and reuses them first", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "keys" });
    const bound = runtime().runs.forPlugin("ns");
    const run = await bound.start({ threadId, input: userInput("hi"), idempotencyKey: "k" });
    await bound.wait({ threadId, runId: run.runId });
    const row = await runtime().fawn.stores.runs.get(run.runId);
    expect(row?.idempotency_key).toBe("extension:ns:k");
    expect(row?.kwargs.origin).toEqual({ kind: "extension", namespace: "ns" });
    const again = await bound.start({ threadId, input: userInput("other"), idempotencyKey: "k" });
    expect(again.runId).toBe(run.runId);
    const unbound = await runtime().runs.start({
      threadId,
      input: userInput("hi"),
      idempotencyKey: "k",
    });
    expect(unbound.runId).not.toBe(run.runId);
    expect((await runtime().fawn.stores.runs.get(unbound.runId))?.idempotency_key).toBe(
      "extension::k",
    );
    await runtime().runs.wait({ threadId, runId: unbound.runId });
  });

  it("refuses keys, inputs and timeouts out of bounds with 422", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "bounds" });
    for (const key of ["", "   ", "k".repeat(201)]) {
      await expect(
        runtime().runs.start({ threadId, input: userInput("x"), idempotencyKey: key }),
      ).rejects.toMatchObject({ status: 422 });
    }
    const huge = { messages: [{ role: "user", content: "x".repeat(300 * 1024) }] };
    await expect(runtime().runs.start({ threadId, input: huge })).rejects.toMatchObject({
      status: 422,
    });
    await expect(
      runtime().runs.start({ threadId, input: userInput("x"), context: { agent_name: "other" } }),
    ).rejects.toMatchObject({ status: 422, message: "Agent identity is bound to the thread" });
    await expect(runtime().runs.resume({ threadId, resume: null })).rejects.toMatchObject({
      status: 422,
    });
    for (const timeoutSeconds of [0, -1, 3601]) {
      await expect(
        runtime().runs.wait({ threadId, runId: "r", timeoutSeconds }),
      ).rejects.toMatchObject({
        status: 422,
      });
    }
  });

  it("answers 404 for another user's thread and run, as if they were absent", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "alices" });
    const run = await runtime().runs.start({ threadId, input: userInput("hi") });
    await runtime().runs.wait({ threadId, runId: run.runId });
    const bob = runtime().fawn.agentRuns.bind({ userId: "bob", via: "session" });
    if (!bob) throw new Error("bob gets a handle");
    const calls = [
      bob.start({ threadId, input: userInput("x") }),
      bob.get({ threadId, runId: run.runId }),
      bob.getState({ threadId }),
      bob.cancel({ threadId, runId: run.runId }),
      bob.importArtifact({ threadId, filename: "a.txt", content: bytesOf("a") }),
      bob.readArtifact({ threadId, path: "/mnt/user-data/uploads/a.txt" }),
      bob.forPlugin("ns").validateArtifactSource({ threadId, runId: null, idempotencyKey: "k" }),
    ];
    for (const call of calls) {
      await expect(call).rejects.toMatchObject({ status: 404, message: "Thread not found" });
    }
    await expect(runtime().runs.get({ threadId, runId: "missing" })).rejects.toMatchObject({
      status: 404,
    });
  });

  it("refuses a busy thread with 409 and maps state, interrupts and answers", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "state" });
    expect(await runtime().runs.getState({ threadId })).toEqual({
      values: {},
      next: [],
      interrupts: [],
      checkpointId: null,
    });
    const waiting = await runtime().runs.start({ threadId, input: userInput("wait") });
    await runtime().entered.wait();
    await expect(runtime().runs.start({ threadId, input: userInput("x") })).rejects.toMatchObject({
      status: 409,
    });
    await runtime().runs.cancel({ threadId, runId: waiting.runId });
    expect((await runtime().runs.wait({ threadId, runId: waiting.runId })).status).toBe(
      "interrupted",
    );
    const asking = await runtime().runs.start({ threadId, input: userInput("approve") });
    expect((await runtime().runs.wait({ threadId, runId: asking.runId })).status).toBe("success");
    const paused = await runtime().runs.getState({ threadId });
    expect(paused.next).toEqual(["agent"]);
    expect(paused.interrupts).toEqual([{ question: "approve?" }]);
    expect(paused.checkpointId).not.toBeNull();
  });

  it("imports idempotently, keeps a changed copy and refuses bad names and sizes", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "imports" });
    const first = await runtime().runs.importArtifact({
      threadId,
      filename: "r.txt",
      content: bytesOf("a"),
    });
    expect(first).toEqual({
      filename: "r.txt",
      path: "/mnt/user-data/uploads/r.txt",
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      size: 1,
    });
    expect(
      await runtime().runs.importArtifact({ threadId, filename: "r.txt", content: bytesOf("a") }),
    ).toEqual(first);
    await writeFile(join(uploadsOf(threadId), "r.txt"), "edited");
    await expect(
      runtime().runs.importArtifact({ threadId, filename: "r.txt", content: bytesOf("a") }),
    ).rejects.toMatchObject({
      status: 422,
      message: "Imported artifact was changed; existing file retained",
    });
    expect(await readFile(join(uploadsOf(threadId), "r.txt"), "utf8")).toBe("edited");
    for (const filename of ["../x", "a/b", "", ".upload-x.part"]) {
      await expect(
        runtime().runs.importArtifact({ threadId, filename, content: bytesOf("a") }),
      ).rejects.toBeInstanceOf(AgentRunError);
    }
    const limit = runtime().fawn.config.uploads.max_file_size;
    await expect(
      runtime().runs.importArtifact({
        threadId,
        filename: "big",
        content: new Uint8Array(limit + 1),
      }),
    ).rejects.toMatchObject({ status: 413 });
  });

  it("reads only files under outputs or uploads, never through a link", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "reads" });
    await runtime().runs.importArtifact({ threadId, filename: "r.txt", content: bytesOf("bytes") });
    const read = await runtime().runs.readArtifact({
      threadId,
      path: "/mnt/user-data/uploads/r.txt",
    });
    expect(Buffer.from(read).toString()).toBe("bytes");
    for (const path of [
      "/mnt/user-data/workspace/r.txt",
      "/mnt/user-data/uploads/../uploads/r.txt",
      "/etc/passwd",
      "/mnt/user-data/outputs",
    ]) {
      await expect(runtime().runs.readArtifact({ threadId, path })).rejects.toMatchObject({
        status: 422,
      });
    }
    await expect(
      runtime().runs.readArtifact({ threadId, path: "/mnt/user-data/outputs/none.txt" }),
    ).rejects.toMatchObject({ status: 404 });
    await symlink("/etc/hostname", join(uploadsOf(threadId), "link.txt"));
    await expect(
      runtime().runs.readArtifact({ threadId, path: "/mnt/user-data/uploads/link.txt" }),
    ).rejects.toBeInstanceOf(AgentRunError);
  });

  it("refuses forged receipts and ends a run whose receipt no longer matches", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "receipts" });
    const receipt = await runtime().runs.importArtifact({
      threadId,
      filename: "r.txt",
      content: bytesOf("a"),
    });
    const forged = [
      { ...receipt, path: "/mnt/user-data/outputs/r.txt" },
      { ...receipt, filename: "../r.txt", path: "/mnt/user-data/uploads/../r.txt" },
      { ...receipt, sha256: "nothex" },
      { ...receipt, size: -1 },
    ];
    for (const artifact of forged) {
      await expect(
        runtime().runs.start({ threadId, input: userInput("x"), artifactImports: [artifact] }),
      ).rejects.toMatchObject({ status: 422 });
    }
    const wrongDigest = { ...receipt, sha256: "0".repeat(64) };
    const run = await runtime().runs.start({
      threadId,
      input: userInput("x"),
      artifactImports: [wrongDigest],
    });
    const ended = await runtime().runs.wait({ threadId, runId: run.runId });
    expect(ended).toMatchObject({ status: "error", stopReason: "artifact_conflict" });
    expect(runtime().handles).toEqual([]);
  });

  it("refuses a handle whose local user no longer exists with 403", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "revoked" });
    const fawn = runtime().fawn;
    const host = new AgentRunsHost({
      services: createGatewayServices(gatewayDepsOf(fawn)),
      stores: { runs: fawn.stores.runs, users: { getUserById: async () => null } },
      manager: fawn.manager,
      runService: fawn.runs,
      artifacts: fawn.artifacts,
      authMode: "local",
      maxRecursionLimit: 100,
    });
    const runs = host.bind({ userId: OWNER, via: "session" });
    await expect(runs?.getState({ threadId })).rejects.toMatchObject({ status: 403 });
  });

  it("keeps the host-only run fields out of the HTTP run response", async () => {
    const runs = runtime().fawn.agentRuns.bind({ userId: DEFAULT_USER_ID, via: "disabled" });
    if (!runs) throw new Error("auth-disabled callers get a handle");
    const threadId = await runs.createThread({ threadId: "hidden" });
    const receipt = await runs.importArtifact({
      threadId,
      filename: "r.txt",
      content: bytesOf("a"),
    });
    const run = await runs.forPlugin("ns").start({
      threadId,
      input: userInput("x"),
      artifactImports: [receipt],
    });
    await runs.wait({ threadId, runId: run.runId });
    const app = createFawnGateway(runtime().fawn, { webRoot: false });
    const response = await app.request(`/api/threads/${threadId}/runs/${run.runId}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { kwargs: Record<string, unknown> };
    expect(body.kwargs.input).toBeDefined();
    expect(body.kwargs).not.toHaveProperty("artifact_imports");
    expect(body.kwargs).not.toHaveProperty("origin");
  });
});
