/**
 * The non-mounted path of the artifact hand-off: every operation takes one lease and releases it
 * exactly once, a denied lease is a 403, and a run without imports never takes one.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type AgentRunsRuntime,
  startAgentRunsRuntime,
  useRemoteSandbox,
  userInput,
} from "../../seeds/fixtures/agent-runs-runtime.js";

let rt: AgentRunsRuntime;
const text = (value: string): Uint8Array => new Uint8Array(Buffer.from(value));

beforeEach(async () => {
  rt = await startAgentRunsRuntime();
});

afterEach(async () => {
  await rt.close();
});

describe("artifact leases", () => {
  it("releases each operation's lease once and writes into the remote root", async () => {
    const threadId = await rt.runs.createThread({ threadId: "remote" });
    const remote = await useRemoteSandbox(rt.fawn);
    const receipt = await rt.runs.importArtifact({
      threadId,
      filename: "a.txt",
      content: text("a"),
    });
    expect(await readFile(join(remote.artifactRoot ?? "", "uploads", "a.txt"), "utf8")).toBe("a");
    expect(remote.release).toHaveBeenCalledTimes(1);
    const read = await rt.runs.readArtifact({ threadId, path: receipt.path });
    expect(Buffer.from(read).toString()).toBe("a");
    expect(remote.release).toHaveBeenCalledTimes(2);
    await expect(
      rt.runs.readArtifact({ threadId, path: "/mnt/user-data/outputs/none" }),
    ).rejects.toMatchObject({ status: 404 });
    expect(remote.release).toHaveBeenCalledTimes(3);
    const plain = await rt.runs.start({ threadId, input: userInput("x") });
    await rt.runs.wait({ threadId, runId: plain.runId });
    expect(remote.release).toHaveBeenCalledTimes(3);
    const verified = await rt.runs.start({
      threadId,
      input: userInput("x"),
      artifactImports: [receipt],
    });
    expect((await rt.runs.wait({ threadId, runId: verified.runId })).status).toBe("success");
    expect(remote.release).toHaveBeenCalledTimes(4);
  });

  it("refuses a denied lease with 403 and a sandbox without a root with 422, releasing both", async () => {
    const threadId = await rt.runs.createThread({ threadId: "denied" });
    const remote = await useRemoteSandbox(rt.fawn);
    rt.fawn.artifacts.acquireLease = async () => ({
      denied: true,
      sandbox: null,
      release: remote.release,
    });
    await expect(
      rt.runs.importArtifact({ threadId, filename: "a.txt", content: text("a") }),
    ).rejects.toMatchObject({ status: 403 });
    expect(remote.release).toHaveBeenCalledTimes(1);
    rt.fawn.artifacts.acquireLease = async () => ({
      denied: false,
      sandbox: { artifactRoot: null },
      release: remote.release,
    });
    await expect(
      rt.runs.readArtifact({ threadId, path: "/mnt/user-data/outputs/a.txt" }),
    ).rejects.toMatchObject({ status: 422 });
    expect(remote.release).toHaveBeenCalledTimes(2);
  });

  it("rejects a wait that outlives its timeout without cancelling the run", async () => {
    const threadId = await rt.runs.createThread({ threadId: "slow" });
    const run = await rt.runs.start({ threadId, input: userInput("wait") });
    await rt.entered.wait();
    await expect(
      rt.runs.wait({ threadId, runId: run.runId, timeoutSeconds: 0.05 }),
    ).rejects.toMatchObject({ status: 504 });
    expect((await rt.runs.get({ threadId, runId: run.runId })).status).toBe("running");
    await rt.runs.cancel({ threadId, runId: run.runId });
    await rt.runs.wait({ threadId, runId: run.runId });
  });
});
