/**
 * A plugin's transfer signal reaches the host's file steps: an aborted import or read stops at its
 * next step with a 409, leaves no file (nor a staged copy) behind and releases its lease once.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FawnPaths } from "../../../src/core/paths.js";
import {
  type AgentRunsRuntime,
  OWNER,
  startAgentRunsRuntime,
  useRemoteSandbox,
} from "../../seeds/fixtures/agent-runs-runtime.js";

let rt: AgentRunsRuntime;
const text = (value: string): Uint8Array => new Uint8Array(Buffer.from(value));

beforeEach(async () => {
  rt = await startAgentRunsRuntime();
});

afterEach(async () => {
  await rt.close();
});

const entries = (dir: string): Promise<string[]> => readdir(dir).catch(() => []);

describe("aborted artifact transfers", () => {
  it("an aborted import writes nothing locally and a later import succeeds", async () => {
    const threadId = await rt.runs.createThread({ threadId: "abort-local" });
    const uploads = new FawnPaths(rt.home).threadPaths({ threadId, userId: OWNER }).uploadsDir;
    const signal = AbortSignal.abort(new Error("transfer bound"));
    await expect(
      rt.runs.importArtifact({ threadId, filename: "a.txt", content: text("a"), signal }),
    ).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/aborted/) });
    await expect(
      rt.runs.readArtifact({ threadId, path: "/mnt/user-data/uploads/a.txt", signal }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await entries(uploads)).toEqual([]);
    const receipt = await rt.runs.importArtifact({
      threadId,
      filename: "a.txt",
      content: text("a"),
    });
    expect(await entries(uploads)).toEqual([receipt.filename]);
  });

  it("an abort while the sandbox lease is taken stops before the file step and releases once", async () => {
    const threadId = await rt.runs.createThread({ threadId: "abort-remote" });
    const remote = await useRemoteSandbox(rt.fawn);
    const acquire = rt.fawn.artifacts.acquireLease;
    const controller = new AbortController();
    rt.fawn.artifacts.acquireLease = async (scope) => {
      const lease = await acquire(scope);
      controller.abort(new Error("worker cancelled"));
      return lease;
    };
    const { signal } = controller;
    await expect(
      rt.runs.importArtifact({ threadId, filename: "a.txt", content: text("a"), signal }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await entries(join(remote.artifactRoot ?? "", "uploads"))).toEqual([]);
    expect(remote.release).toHaveBeenCalledTimes(1);

    rt.fawn.artifacts.acquireLease = acquire;
    const receipt = await rt.runs.importArtifact({
      threadId,
      filename: "a.txt",
      content: text("a"),
    });
    const reading = new AbortController();
    rt.fawn.artifacts.acquireLease = async (scope) => {
      const lease = await acquire(scope);
      reading.abort(new Error("transfer bound"));
      return lease;
    };
    await expect(
      rt.runs.readArtifact({ threadId, path: receipt.path, signal: reading.signal }),
    ).rejects.toMatchObject({ status: 409 });
    expect(remote.release).toHaveBeenCalledTimes(3);
  });
});
