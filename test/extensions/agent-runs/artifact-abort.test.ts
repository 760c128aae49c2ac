/**
 * A plugin's transfer signal reaches the host's file steps: an aborted import or read stops at its
 * next step with a 409, leaves no file (nor a staged copy) behind and releases its lease once.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FawnPaths } from "../../../src/core/paths.js";
import {
  agentRunsRuntimePerTest,
  bytesOf,
  OWNER,
  useRemoteSandbox,
} from "../../seeds/fixtures/agent-runs-runtime.js";

const runtime = agentRunsRuntimePerTest();

const entries = (dir: string): Promise<string[]> => readdir(dir).catch(() => []);

describe("aborted artifact transfers", () => {
  it("an aborted import writes nothing locally and a later import succeeds", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "abort-local" });
    const uploads = new FawnPaths(runtime().home).threadPaths({
      threadId,
      userId: OWNER,
    }).uploadsDir;
    const signal = AbortSignal.abort(new Error("transfer bound"));
    await expect(
      runtime().runs.importArtifact({ threadId, filename: "a.txt", content: bytesOf("a"), signal }),
    ).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/aborted/) });
    await expect(
      runtime().runs.readArtifact({ threadId, path: "/mnt/user-data/uploads/a.txt", signal }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await entries(uploads)).toEqual([]);
    const receipt = await runtime().runs.importArtifact({
      threadId,
      filename: "a.txt",
      content: bytesOf("a"),
    });
    expect(await entries(uploads)).toEqual([receipt.filename]);
  });

  it("an abort while the sandbox lease is taken stops before the file step and releases once", async () => {
    const threadId = await runtime().runs.createThread({ threadId: "abort-remote" });
    const remote = await useRemoteSandbox(runtime().fawn);
    const acquire = runtime().fawn.artifacts.acquireLease;
    const controller = new AbortController();
    runtime().fawn.artifacts.acquireLease = async (scope) => {
      const lease = await acquire(scope);
      controller.abort(new Error("worker cancelled"));
      return lease;
    };
    const { signal } = controller;
    await expect(
      runtime().runs.importArtifact({ threadId, filename: "a.txt", content: bytesOf("a"), signal }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await entries(join(remote.artifactRoot ?? "", "uploads"))).toEqual([]);
    expect(remote.release).toHaveBeenCalledTimes(1);

    runtime().fawn.artifacts.acquireLease = acquire;
    const receipt = await runtime().runs.importArtifact({
      threadId,
      filename: "a.txt",
      content: bytesOf("a"),
    });
    const reading = new AbortController();
    runtime().fawn.artifacts.acquireLease = async (scope) => {
      const lease = await acquire(scope);
      reading.abort(new Error("transfer bound"));
      return lease;
    };
    await expect(
      runtime().runs.readArtifact({ threadId, path: receipt.path, signal: reading.signal }),
    ).rejects.toMatchObject({ status: 409 });
    expect(remote.release).toHaveBeenCalledTimes(3);
  });
});
