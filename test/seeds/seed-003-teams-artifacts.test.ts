/**
 * Seed 003, the agent-teams side of artifact hand-offs (tests 2, 8–14): the real plugin over its
 * own SQLite file, against the in-memory `Runs` host double. Host methods are replaced on the
 * double's instance, as the seed monkeypatches them; transfers see the plugin's abort signal.
 *
 * Timing: the seed sleeps 10.1 s against the 10 s poll budget (test 10). Here both are scaled
 * down through `teamsSettings` (1 s budget, 1.01 s transfer): the same ratio, the same outcome.
 */
import { ToolMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildClarificationRequest } from "../../src/agent/middlewares/clarification/clarification-request.js";
import { messageToDict } from "../../src/core/json/serialize.js";
import { type AgentRun, AgentRunError } from "../../src/extensions/api/index.js";
import {
  pollSignal,
  TimeoutError,
  teamsSettings,
  transfer,
  withWorkerDeadline,
} from "../../src/plugins/agent-teams/index.js";
import {
  artifactTools,
  context,
  create,
  type LoadedTeams,
  loadTeamsPlugin,
  producingTask,
  readyAttachment,
  saved,
  savedJob,
  send,
  toolContext,
} from "./fixtures/teams-plugin.js";
import { fileKey, Runs, type WithSignal } from "./fixtures/teams-runs-fake.js";

const DEFAULTS = { ...teamsSettings };
let plugin: LoadedTeams;

beforeEach(async () => {
  plugin = await loadTeamsPlugin();
});

afterEach(async () => {
  Object.assign(teamsSettings, DEFAULTS);
  await plugin.close();
});

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** A system error, the analogue of the seed's OSError: the acknowledgement got lost. */
const lostAck = (): Error =>
  Object.assign(new Error("Lost admission acknowledgement"), { code: "ECONNRESET" });

const register = (runs: Runs, thread: string, payload: Record<string, unknown>) =>
  artifactTools(plugin.contributions).register_team_artifact?.(
    payload,
    toolContext(runs, thread),
  ) as Promise<{
    artifact: { artifact_id: string; version: number; source: { run_id: string } };
  }>;

describe("seed 003: agent-teams artifact hand-offs", () => {
  it("registration_uses_host_key_before_admission_ack_is_persisted", async () => {
    const runs = new Runs();
    const team = await create(plugin.actions, runs);
    const member = team.members[0];
    if (member === undefined) throw new Error("member expected");
    const job = await send(plugin, runs, {
      team_id: team.id,
      member_id: member.id,
      text: "Produce",
      request_id: "task",
    });
    const start = runs.start.bind(runs);
    runs.start = async (args) => {
      await start(args);
      throw lostAck();
    };
    await plugin.teams.tick();
    expect((await savedJob(plugin, team.id, job.id)).run_id).toBeNull();
    const args = {
      team_id: team.id,
      request_id: "file",
      name: "Report",
      path: "/mnt/user-data/outputs/report.txt",
    };
    const registered = await register(runs, member.thread_id, args);
    expect(registered.artifact.source.run_id).toBe(job.id);
    expect(await register(runs, member.thread_id, args)).toEqual(registered);
  });

  it.each(["admission_conflict", "host_finished"])(
    "registration_rejects_nonexecuting_job [%s]",
    async (stage) => {
      const runs = new Runs();
      const team = await create(plugin.actions, runs);
      const member = team.members[0];
      if (member === undefined) throw new Error("member expected");
      const args = {
        team_id: team.id,
        request_id: "invalid-execution",
        name: "Report",
        path: "/mnt/user-data/outputs/report.txt",
      };
      if (stage === "admission_conflict") {
        await runs.start({
          threadId: member.thread_id,
          input: { messages: [{ role: "user", content: "ordinary" }] },
          idempotencyKey: "ordinary",
        });
      }
      const job = await send(plugin, runs, {
        team_id: team.id,
        member_id: member.id,
        text: "Task",
        request_id: "task",
      });
      await expect(register(runs, member.thread_id, args)).rejects.toThrow(/executing/);
      expect(
        (await register(runs, member.thread_id, args).catch((e: unknown) => e)) instanceof
          AgentRunError,
      ).toBe(false);
      await plugin.teams.tick();
      if (stage === "host_finished") runs.finish(job.id);
      const queued = await savedJob(plugin, team.id, job.id);
      expect(queued.input).not.toBeNull();
      if (stage === "admission_conflict") expect(queued.run_id).toBeNull();
      else expect(runs.runs.get(queued.run_id ?? "")?.status).toBe("success");
      await expect(register(runs, member.thread_id, args)).rejects.toThrow(/executing/);
      expect((await saved(plugin, team.id)).artifacts).toEqual([]);
    },
  );

  describe.each([false, true])(
    "resumed_task_registers_files_with_its_active_execution_key [clarification=%s]",
    (clarification) => {
      it.each([false, true])("[lost_ack=%s]", async (lost) => {
        const { runs, team, author, job } = await producingTask(plugin);
        runs.finish(job.id, "Evidence checked.", { interrupted: !clarification });
        if (clarification) askClarification(runs, author.thread_id, "Which environment?");
        await plugin.teams.tick();
        expect((await savedJob(plugin, team.id, job.id)).status).toBe("waiting_input");
        const method = clarification ? "start" : "resume";
        const admit: (args: never) => Promise<AgentRun> = (
          clarification ? runs.start : runs.resume
        ).bind(runs);
        const loseAck = async (args: never): Promise<AgentRun> => {
          const result = await admit(args);
          if (lost) throw lostAck();
          return result;
        };
        runs[method] = loseAck;
        await plugin.actions.resume?.(
          {
            team_id: team.id,
            job_id: job.id,
            response: clarification ? "staging" : { approved: true },
            request_id: "answer",
          },
          context(runs),
        );
        await plugin.teams.tick();
        const args = {
          team_id: team.id,
          request_id: "resumed-file",
          name: "Report",
          path: "/mnt/user-data/outputs/resumed.txt",
        };
        // Registration must work both before and after the acknowledgement is saved.
        const before = await register(runs, author.thread_id, args);
        runs[method] = admit;
        await plugin.teams.tick();
        const after = await register(runs, author.thread_id, { ...args, request_id: "after-ack" });
        expect(before.artifact.source.run_id).toBe(after.artifact.source.run_id);
        expect(after.artifact.source.run_id).not.toBe(job.id);
      });
    },
  );

  it.each(["import", "capture"])(
    "artifact_transfer_can_exceed_the_poll_deadline [%s]",
    async (operation) => {
      teamsSettings.pollBudgetSeconds = 1;
      const slowMs = 1010;
      let calls = 0;
      let runs: Runs;
      let teamId: string;
      let targetId: string;
      if (operation === "import") {
        const ready = await readyAttachment(plugin);
        ({ runs } = ready);
        teamId = ready.team.id;
        targetId = ready.target.id;
        const transfer = runs.importArtifact.bind(runs);
        runs.importArtifact = async (args) => {
          calls += 1;
          await sleep(slowMs);
          return transfer(args);
        };
      } else {
        const task = await producingTask(plugin);
        ({ runs } = task);
        teamId = task.team.id;
        targetId = task.job.id;
        const path = "/mnt/user-data/outputs/slow.txt";
        runs.files.set(
          fileKey(task.author.thread_id, path),
          new TextEncoder().encode("retained bytes"),
        );
        await register(runs, task.author.thread_id, {
          team_id: teamId,
          request_id: "file",
          name: "Report",
          path,
        });
        runs.finish(targetId);
        const transfer = runs.readArtifact.bind(runs);
        runs.readArtifact = async (args) => {
          calls += 1;
          await sleep(slowMs);
          return transfer(args);
        };
      }
      await plugin.teams.tick();
      const team = await saved(plugin, teamId);
      const job = team.jobs.find((j) => j.id === targetId);
      if (operation === "import") {
        expect(job?.run_id).toBe(targetId);
        expect(job?.artifact_imports.length).toBeGreaterThan(0);
        expect(job?.input).not.toBeNull();
      } else {
        expect(job?.status).toBe("completed");
        expect(team.artifacts[0]?.status).toBe("ready");
      }
      await plugin.teams.tick();
      expect(calls).toBe(1);
    },
    20_000,
  );

  it.each([false, true])(
    "artifact_deadline_and_shutdown_drain_the_transfer [cancel_worker=%s]",
    async (cancelWorker) => {
      const { runs, team, target } = await readyAttachment(plugin);
      if (!cancelWorker) teamsSettings.artifactTransferSeconds = 0.01;
      const entered = deferred();
      const draining = deferred();
      const release = deferred();
      runs.importArtifact = async ({
        signal,
      }: WithSignal<Parameters<Runs["importArtifact"]>[0]>) => {
        entered.resolve();
        // Waits until aborted, then drains until released and rethrows the abort.
        await new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve()));
        draining.resolve();
        await release.promise;
        throw signal?.reason;
      };
      const controller = new AbortController();
      let done = false;
      const tick = plugin.teams.tick(controller.signal).finally(() => {
        done = true;
      });
      tick.catch(() => undefined);
      try {
        await entered.promise;
        if (cancelWorker) controller.abort(new Error("tick cancelled"));
        await draining.promise;
        await sleep(20);
        expect(done).toBe(false);
        expect(plugin.teams.inFlight.size).toBeGreaterThan(0);
      } finally {
        release.resolve();
      }
      if (cancelWorker) await expect(tick).rejects.toThrow("tick cancelled");
      else await tick;
      expect(plugin.teams.inFlight.size).toBe(0);
      expect(plugin.teams.workers.size).toBe(0);
      const job = await savedJob(plugin, team.id, target.id);
      expect(job.input).toBeNull();
      expect(job.run_id).toBeNull();
    },
  );

  it("completed_transfer_restores_the_ordinary_poll_budget", async () => {
    teamsSettings.artifactTransferSeconds = 2;
    let transferred = false;
    const never = new AbortController().signal;
    await expect(
      withWorkerDeadline(100, never, async () => {
        await transfer(({ delay, signal }) => sleep(delay, signal), { delay: 150 });
        transferred = true;
        // Ordinary work must again time out, even after a slow file.
        await sleep(150, pollSignal());
      }),
    ).rejects.toBeInstanceOf(TimeoutError);
    expect(transferred).toBe(true);
  });

  it("frozen_input_still_requires_unchanged_imports_after_conflict", async () => {
    const { runs, team, recipient, target } = await readyAttachment(plugin);
    const originalStart = runs.start.bind(runs);
    let first = true;
    runs.start = async (args) => {
      if (first && args.idempotencyKey === target.id) {
        first = false;
        await originalStart({
          threadId: recipient.thread_id,
          input: { messages: [{ role: "user", content: "ordinary" }] },
          idempotencyKey: "ordinary",
        });
        const last = runs.imports.at(-1);
        if (last !== undefined)
          runs.files.set(
            fileKey(last.threadId, last.path),
            new TextEncoder().encode("ordinary edit"),
          );
      }
      return originalStart(args);
    };
    await plugin.teams.tick();
    const job = await savedJob(plugin, team.id, target.id);
    expect(job.run_id).toBeNull();
    expect(job.input).not.toBeNull();
    runs.finish("ordinary");
    await plugin.teams.tick();
    expect(runs.runs.has(target.id)).toBe(false);
    expect(runs.imports).toHaveLength(1);
    const rejected = await savedJob(plugin, team.id, target.id);
    expect(rejected.status).toBe("failed");
    expect(rejected.error).toContain("artifact copy");
  });

  it("import_conflict_reports_artifact_error_without_admission", async () => {
    const { runs, team, target } = await readyAttachment(plugin);
    runs.importArtifact = async () => {
      throw new AgentRunError(422, "Imported artifact was changed; existing file retained");
    };
    await plugin.teams.tick();
    const job = await savedJob(plugin, team.id, target.id);
    expect(job.status).toBe("failed");
    expect(job.error).toContain("artifact copy");
    expect(job.error).toContain("changed");
    expect(runs.runs.has(target.id)).toBe(false);
  });
});

/**
 * Appends what Fawn's clarification middleware answers to `ask_clarification`, as the host
 * reports it: the middleware's own request builder, and its ToolMessage (id = request id,
 * `artifact.human_input`) in the LangChain dict form.
 */
function askClarification(runs: Runs, threadId: string, question: string): void {
  const { text, payload } = buildClarificationRequest(
    { question, clarification_type: "missing_info" },
    "question",
  );
  const message = new ToolMessage({
    id: payload.request_id,
    content: text,
    tool_call_id: "question",
    name: "ask_clarification",
    artifact: { human_input: payload },
  });
  runs.threads.get(threadId)?.values.messages.push(messageToDict(message));
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
