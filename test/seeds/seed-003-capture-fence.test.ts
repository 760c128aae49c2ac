/**
 * Seed 003 test 15: the capture of a team artifact is fenced to the checkpoint its job's
 * completion was decided on. The real run host (`fixtures/agent-runs-runtime.ts`) and the real
 * agent-teams plugin (`fixtures/teams-plugin.ts`) together: the producer run writes and presents
 * the author's real `outputs/report.txt`; when an ordinary turn on the author's thread rewrites
 * the file while the plugin reads it, the artifact fails (no content stored) but the job, decided
 * before the read, still completes.
 */
import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { Command, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FawnPaths } from "../../src/core/paths.js";
import type { AgentRuns, ReadArtifactArgs } from "../../src/extensions/api/index.js";
import { INPUT_PREFIX } from "../../src/plugins/agent-teams/jobs.js";
import type { Member } from "../../src/plugins/agent-teams/model.js";
import type { AgentFactory } from "../../src/ports/agent.js";
import { Latch, within } from "../helpers/latch.js";
import {
  type AgentRunsRuntime,
  OWNER,
  startAgentRunsRuntime,
  userInput,
} from "./fixtures/agent-runs-runtime.js";
import {
  artifactTools,
  context,
  type LoadedTeams,
  loadTeamsPlugin,
  REPORT,
  type TeamView,
} from "./fixtures/teams-plugin.js";

let rt: AgentRunsRuntime;
let plugin: LoadedTeams;

beforeEach(async () => {
  rt = await startAgentRunsRuntime();
  plugin = await loadTeamsPlugin();
});

afterEach(async () => {
  await plugin.close();
  await rt.close();
});

/** `work`, or the run's cancellation (so a failing test's close does not hang on the node). */
function untilAborted(work: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return work;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    }),
  ]);
}

/**
 * The seed's one-node graph: a team request writes "producer output", signals `entered` and
 * waits for `finish`; any other turn writes "later ordinary output". Either way the node presents
 * the file (a produced but unpresented output would fail the run's delivery check) and answers.
 */
function reportGraph(output: string, entered: Latch, finish: Latch): AgentFactory {
  return (args) => ({
    stream: (input, options) => {
      const graph = new StateGraph(MessagesAnnotation)
        .addNode("answer", async (state: { messages: BaseMessage[] }) => {
          const text = String(state.messages.at(-1)?.content ?? "");
          if (text.startsWith(INPUT_PREFIX)) {
            await writeFile(output, "producer output");
            entered.set();
            await untilAborted(finish.wait(), options.signal);
          } else {
            await writeFile(output, "later ordinary output");
          }
          const presented = new ToolMessage({
            content: "Presented",
            tool_call_id: "present-output",
            name: "present_files",
          });
          options.journal?.handleToolEnd(
            new Command({ update: { artifacts: [REPORT], messages: [presented] } }),
            randomUUID(),
          );
          return { messages: [new AIMessage("done")] };
        })
        .addEdge(START, "answer")
        .addEdge("answer", END)
        .compile(args.checkpointer ? { checkpointer: args.checkpointer } : {});
      return graph.stream(input as { messages: BaseMessage[] }, {
        configurable: options.configurable,
        callbacks: options.callbacks as never,
        streamMode: "values",
        ...(options.signal ? { signal: options.signal } : {}),
      });
    },
  });
}

async function reviewTeam(runs: AgentRuns): Promise<{ team: TeamView; author: Member }> {
  const team = (await plugin.actions.create?.(
    {
      request_id: "real-team",
      name: "Review",
      goal: "Reproduce capture race",
      members: [
        { name: "Author", agent: "lead_agent" },
        { name: "Recipient", agent: "lead_agent" },
      ],
    },
    context(runs, OWNER),
  )) as TeamView;
  const author = team.members[0];
  if (author === undefined) throw new Error("the team has no author");
  return { team, author };
}

describe("seed 003: capture fenced to the checked checkpoint (real host and plugin)", () => {
  it.each([false, true])(
    "source_capture_is_fenced_to_checked_checkpoint (later_turn %s)",
    async (laterTurn) => {
      const runs = rt.runs.forPlugin("community.agent-teams");
      const { team, author } = await reviewTeam(runs);
      const outputs = new FawnPaths(rt.home).threadPaths({
        threadId: author.thread_id,
        userId: OWNER,
      }).outputsDir;
      await mkdir(outputs, { recursive: true });
      const entered = new Latch();
      const finishProducer = new Latch();
      rt.agent.current = reportGraph(join(outputs, "report.txt"), entered, finishProducer);

      const job = (await plugin.actions.send?.(
        { team_id: team.id, member_id: author.id, text: "Produce", request_id: "produce" },
        context(runs, OWNER),
      )) as { id: string };
      await plugin.teams.tick();
      await within(entered.wait(), 5000, "the producer run never reached its node");
      const executing = (await plugin.teams.job(OWNER, team.id, job.id)).run_id;
      expect(executing).not.toBeNull();
      const register = artifactTools(plugin.contributions).register_team_artifact;
      if (register === undefined) throw new Error("the plugin has no register_team_artifact tool");
      const { artifact: registered } = (await register(
        { team_id: team.id, request_id: "file", name: "Report", path: REPORT },
        { ...context(runs, OWNER, author.thread_id), runId: executing },
      )) as { artifact: { artifact_id: string; source: { run_id: string } } };
      const producerId = registered.source.run_id;
      expect(producerId).toBe(executing);
      expect((await runs.get({ threadId: author.thread_id, runId: producerId })).status).toBe(
        "running",
      );
      finishProducer.set();
      const producer = await runs.wait({
        threadId: author.thread_id,
        runId: producerId,
        timeoutSeconds: 5,
      });
      expect(producer.status).toBe("success");

      // The plugin binds its handle again with `forPlugin`: the same object, so it sees this wrapper.
      const laterIds: string[] = [];
      if (laterTurn) {
        const originalRead = runs.readArtifact.bind(runs);
        runs.readArtifact = async (args: ReadArtifactArgs) => {
          const later = await runs.start({
            threadId: author.thread_id,
            input: userInput("ordinary next turn"),
            idempotencyKey: "later",
          });
          laterIds.push(later.runId);
          const ended = await runs.wait({
            threadId: author.thread_id,
            runId: later.runId,
            timeoutSeconds: 5,
          });
          expect(ended.status).toBe("success");
          return originalRead(args);
        };
      }
      await plugin.teams.tick();

      const saved = await plugin.teams.store.get(OWNER, team.id);
      expect(saved.jobs.find((j) => j.id === job.id)?.status).toBe("completed");
      const retained = saved.artifacts[0];
      expect(retained?.source.run_id).toBe(producerId);
      const stored = plugin.teams.store.artifact(OWNER, team.id, registered.artifact_id, 1);
      if (laterTurn) {
        expect(laterIds).toHaveLength(1);
        expect(retained?.status).toBe("failed");
        await expect(stored).rejects.toThrow(/unavailable/);
      } else {
        expect(retained?.status).toBe("ready");
        const { content } = await stored;
        expect(new TextDecoder().decode(content)).toBe("producer output");
      }
    },
  );
});
