/**
 * The non-mounted path of the artifact hand-off: every operation takes one lease and releases it
 * exactly once, a denied lease is a 403, and a run without imports never takes one.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentRunsRuntimePerTest,
  bytesOf,
  useRemoteSandbox,
  userInput,
} from "../../seeds/fixtures/agent-runs-runtime.js";

const runtime = agentRunsRuntimePerTest();

describe("artifact leases", () => {
  it("releases each operation's lease once and writes into the remote root", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "remote" });
    const remote = await useRemoteSandbox(runtime().fawn);
    const receipt = await runtime().runs.importArtifact({
      threadId,
      filename: "a.txt",
      content: bytesOf("a"),
    });
    expect(await readFile(join(remote.artifactRoot ?? "", "uploads", "a.txt"), "utf8")).toBe("a");
    expect(remote.release).toHaveBeenCalledTimes(1);
    const read = await runtime().runs.readArtifact({ threadId, path: receipt.path });
    expect(Buffer.from(read).toString()).toBe("a");
    expect(remote.release).toHaveBeenCalledTimes(2);
    await expect(
      runtime().runs.readArtifact({ threadId, path: "/mnt/user-data/outputs/none" }),
    ).rejects.toMatchObject({ status: 404 });
    expect(remote.release).toHaveBeenCalledTimes(3);
    const plain = await runtime().runs.start({ threadId, input: userInput("x") });
    await runtime().runs.wait({ threadId, runId: plain.runId });
    expect(remote.release).toHaveBeenCalledTimes(3);
    const verified = await runtime().runs.start({
      threadId,
      input: userInput("x"),
      artifactImports: [receipt],
    });
    expect((await runtime().runs.wait({ threadId, runId: verified.runId })).status).toBe("success");
    expect(remote.release).toHaveBeenCalledTimes(4);
  });

  it("refuses a denied lease with 403 and a sandbox without a root with 422, releasing both", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "denied" });
    const remote = await useRemoteSandbox(runtime().fawn);
    runtime().fawn.artifacts.acquireLease = async () => ({
      denied: true,
      sandbox: null,
      release: remote.release,
    });
    await expect(
      runtime().runs.importArtifact({ threadId, filename: "a.txt", content: bytesOf("a") }),
    ).rejects.toMatchObject({ status: 403 });
    expect(remote.release).toHaveBeenCalledTimes(1);
    runtime().fawn.artifacts.acquireLease = async () => ({
      denied: false,
      sandbox: { artifactRoot: null },
      release: remote.release,
    });
    await expect(
      runtime().runs.readArtifact({ threadId, path: "/mnt/user-data/outputs/a.txt" }),
    ).rejects.toMatchObject({ status: 422 });
    expect(remote.release).toHaveBeenCalledTimes(2);
  });

  it("rejects a wait that outlives its timeout without cancelling the run", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "slow" });
    const run = await runtime().runs.start({ threadId, input: userInput("wait") });
    await runtime().entered.wait();
    await expect(
      runtime().runs.wait({ threadId, runId: run.runId, timeoutSeconds: 0.05 }),
    ).rejects.toMatchObject({ status: 504 });
    expect((await runtime().runs.get({ threadId, runId: run.runId })).status).toBe("running");
    await runtime().runs.cancel({ threadId, runId: run.runId });
    await runtime().runs.wait({ threadId, runId: run.runId });
  });
});
