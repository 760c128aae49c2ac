/**
 * Seed 003, the host half of plugin artifact hand-off: plugin-scoped admission (`forPlugin`, the
 * host-stamped origin), import verification before the agent is built, and the sandbox lease of a
 * non-mounted sandbox. Real runtime (`fixtures/agent-runs-runtime.ts`); the non-mounted sandbox is
 * the `remote` stand-in reached through the artifact seams.
 */
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayDepsOf } from "../../src/app/fawn-gateway.js";
import { AgentRunError } from "../../src/core/errors.js";
import { FawnPaths } from "../../src/core/paths.js";
import { createGatewayServices } from "../../src/gateway/app.js";
import { runCreateBody } from "../../src/gateway/runs/run-schemas.js";
import type { ArtifactReceiptJson } from "../../src/ports/run-types.js";
import { Latch, within } from "../helpers/latch.js";
import {
  type AgentRunsRuntime,
  OWNER,
  startAgentRunsRuntime,
  useRemoteSandbox,
  userInput,
} from "./fixtures/agent-runs-runtime.js";

const NAMESPACE = "artifact-fixture";
const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "latin1"));

let rt: AgentRunsRuntime;

beforeEach(async () => {
  rt = await startAgentRunsRuntime();
});

afterEach(async () => {
  await rt.close();
});

async function settledTask(runId: string): Promise<() => Promise<void>> {
  const record = rt.fawn.manager.getLocal(runId);
  return async () => {
    await record?.task?.settled();
  };
}

describe("seed 003: plugin runs and artifact hand-off (host)", () => {
  it("plain_admission_cannot_impersonate_plugin_with_the_same_key", async () => {
    const threadId = await rt.runs.createThread({ threadId: "plain-artifact-source" });
    const gateway = createGatewayServices(gatewayDepsOf(rt.fawn)).runs;
    const { record } = await gateway.create(
      OWNER,
      threadId,
      runCreateBody.parse({ input: userInput("wait") }),
      `extension:${NAMESPACE}:task`,
    );
    await rt.entered.wait();
    expect(rt.fawn.manager.getLocal(record.runId)?.status).toBe("running");
    const claim = rt.runs
      .forPlugin(NAMESPACE)
      .validateArtifactSource({ threadId, runId: record.runId, idempotencyKey: "task" });
    await expect(claim).rejects.toBeInstanceOf(AgentRunError);
    await expect(claim).rejects.toThrow(/executing/);
    await rt.runs.cancel({ threadId, runId: record.runId });
    await record.task?.settled();
  });

  it("admission_rejects_remote_edits_without_overwriting_them", async () => {
    const runs = rt.runs.forPlugin(NAMESPACE);
    const threadId = await runs.createThread({ threadId: "remote-recipient" });
    const remote = await useRemoteSandbox(rt.fawn);
    const receipt = await runs.importArtifact({
      threadId,
      filename: "report.txt",
      content: bytes("original"),
    });
    const remoteCopy = join(remote.artifactRoot ?? "", "uploads", receipt.filename);
    expect(await readFile(remoteCopy, "utf8")).toBe("original");
    await writeFile(remoteCopy, "remote recipient edit");
    const run = await runs.start({
      threadId,
      input: userInput("first"),
      artifactImports: [receipt],
    });
    const ended = await runs.wait({ threadId, runId: run.runId, timeoutSeconds: 5 });
    expect(ended.status).toBe("error");
    expect(ended.stopReason).toBe("artifact_conflict");
    expect(rt.handles).toEqual([]);
    expect(await readFile(remoteCopy, "utf8")).toBe("remote recipient edit");
  });

  it("remote_snapshot_lease_survives_into_agent_execution", async () => {
    const runs = rt.runs.forPlugin(NAMESPACE);
    const threadId = await runs.createThread({ threadId: "remote-recipient" });
    const remote = await useRemoteSandbox(rt.fawn);
    const receipt = await runs.importArtifact({
      threadId,
      filename: "report.txt",
      content: bytes("original"),
    });
    remote.release.mockClear();
    const run = await runs.start({
      threadId,
      input: userInput("wait"),
      artifactImports: [receipt],
    });
    const ended = await settledTask(run.runId);
    await rt.entered.wait();
    expect(remote.release).toHaveBeenCalledTimes(0);
    await runs.cancel({ threadId, runId: run.runId });
    await ended();
    expect(remote.release).toHaveBeenCalledTimes(1);
  });

  it("admission_checks_files_before_agent_and_reconciles_completed_key_first", async () => {
    const runs = rt.runs.forPlugin(NAMESPACE);
    const threadId = await runs.createThread({ threadId: "artifact-admission" });
    const receipt = await runs.importArtifact({
      threadId,
      filename: "report.txt",
      content: bytes("original"),
    });
    const localCopy = join(
      new FawnPaths(rt.home).threadPaths({ threadId, userId: OWNER }).uploadsDir,
      receipt.filename,
    );
    const imports = [receipt];
    const first = await runs.start({
      threadId,
      input: userInput("first"),
      idempotencyKey: "first",
      artifactImports: imports,
    });
    expect((await runs.wait({ threadId, runId: first.runId })).status).toBe("success");
    await writeFile(localCopy, "recipient edit");
    const retried = await runs.start({
      threadId,
      input: userInput("first"),
      idempotencyKey: "first",
      artifactImports: imports,
    });
    expect(retried.runId).toBe(first.runId);
    const executions = rt.handles.length;
    const second = await runs.start({
      threadId,
      input: userInput("second"),
      idempotencyKey: "second",
      artifactImports: imports,
    });
    const ended = await runs.wait({ threadId, runId: second.runId });
    expect(ended.status).toBe("error");
    expect(ended.stopReason).toBe("artifact_conflict");
    expect(rt.handles.length).toBe(executions);
    expect(await readFile(localCopy, "utf8")).toBe("recipient edit");
  });

  it("import_verification_holds_durable_run_admission", async () => {
    const runs = rt.runs.forPlugin(NAMESPACE);
    const threadId = await runs.createThread({ threadId: "artifact-admission" });
    const receipt = await runs.importArtifact({
      threadId,
      filename: "report.txt",
      content: bytes("original"),
    });
    const entered = new Latch();
    const release = new Latch();
    const verify = rt.fawn.artifacts.verifyImports.bind(rt.fawn.artifacts);
    rt.fawn.artifacts.verifyImports = async (scope, receipts: readonly ArtifactReceiptJson[]) => {
      entered.set();
      await release.wait();
      return verify(scope, receipts);
    };
    const first = await runs.start({
      threadId,
      input: userInput("first"),
      idempotencyKey: "first",
      artifactImports: [receipt],
    });
    await within(entered.wait(), 10_000, "verification never started");
    const ordinary = runs.start({ threadId, input: userInput("ordinary") });
    await expect(ordinary).rejects.toMatchObject({ status: 409 });
    await expect(ordinary).rejects.toBeInstanceOf(AgentRunError);
    release.set();
    expect((await runs.wait({ threadId, runId: first.runId })).status).toBe("success");
  });

  it("nonmounted_capture_reads_remote_bytes_and_registration_checks_support", async () => {
    const runs = rt.runs.forPlugin(NAMESPACE);
    const threadId = await runs.createThread({ threadId: "remote-source" });
    const run = await runs.start({ threadId, input: userInput("wait"), idempotencyKey: "source" });
    const ended = await settledTask(run.runId);
    await rt.entered.wait();
    const remote = await useRemoteSandbox(rt.fawn);
    const source = await runs.validateArtifactSource({
      threadId,
      runId: run.runId,
      idempotencyKey: "source",
    });
    expect(source.runId).toBe(run.runId);
    remote.artifactRoot = null;
    await expect(
      runs.validateArtifactSource({ threadId, runId: run.runId, idempotencyKey: "source" }),
    ).rejects.toMatchObject({ status: 422 });
    remote.artifactRoot = await mkdtemp(join(tmpdir(), "fawn-remote-sandbox-"));
    await mkdir(join(remote.artifactRoot, "outputs"));
    await writeFile(join(remote.artifactRoot, "outputs", "report.bin"), bytes("remote\0\xff"));
    await runs.cancel({ threadId, runId: run.runId });
    await runs.wait({ threadId, runId: run.runId });
    await ended();
    const read = await runs.readArtifact({ threadId, path: "/mnt/user-data/outputs/report.bin" });
    expect(Buffer.from(read)).toEqual(Buffer.from(bytes("remote\0\xff")));
    expect(remote.release).toHaveBeenCalledTimes(3);
  });
});
