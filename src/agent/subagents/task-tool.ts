import { randomUUID } from "node:crypto";
import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ToolMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, type ToolRunnableConfig, tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { z } from "zod";
import { cancellationOf } from "../../core/async/task.js";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { ThreadDataState } from "../lead-agent/thread-state.js";
import type { DelegationEntry, SandboxState } from "../lead-agent/thread-state-reducers.js";
import { runOptionsOf } from "../middlewares/runtime.js";
import { TASK_TOOL } from "../middlewares/subagent-limit/subagent-limit-middleware.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import { type PromptSkill, renderSkillSystem } from "../prompts/prompt-sections.js";
import { threadScopeOf } from "../tools/thread-scope.js";
import { BASH_SUBAGENT } from "./builtin-subagents.js";
import { runSubagent, type SubagentRunRequest } from "./run-subagent.js";
import type { SubagentRegistry } from "./subagent-registry.js";
import type { SubagentType } from "./subagent-type.js";
import { taskProgress } from "./task-progress.js";
import { type SubagentOutcome, taskResultKwargs, taskResultText } from "./task-result.js";

export const BASH_SUBAGENT_DISABLED_MESSAGE =
  "Bash subagent is disabled: this deployment has no sandbox that may run commands (the local sandbox runs them unconfined on the host, and host bash is off). " +
  "Use sandbox.use: bwrap (or auto on a host with bubblewrap) for an isolated sandbox, or set sandbox.allow_host_bash: true on a trusted machine.";

/** The model a sub-agent runs on, with what its middlewares need to know about it. */
export interface SubagentModel {
  model: BaseChatModel;
  name: string;
  supportsVision: boolean;
  contextWindow: number | undefined;
}

export interface TaskToolOptions {
  registry: SubagentRegistry;
  /** The lead agent's tools for this run, before a type's allow and deny lists. */
  parentTools: readonly StructuredToolInterface[];
  /** The run's enabled skills as the lead agent's prompt lists them (empty: none readable). */
  skills?: readonly PromptSkill[];
  /** The model a type names (`inherit`: the run's model); rejects when it cannot be built. */
  resolveModel(name: string): Promise<SubagentModel>;
  /** A fresh middleware chain for one sub-agent run. */
  middlewares(model: SubagentModel): AgentMiddleware[];
  logger?: Logger;
}

const taskSchema = z.object({
  description: z
    .string()
    .describe("A short (3-5 words) description of the task, for display. Provide first."),
  prompt: z
    .string()
    .describe(
      "The complete, standalone task for the sub-agent: it sees nothing of this conversation. Provide second.",
    ),
  subagent_type: z.string().describe("The sub-agent type to use. Provide third."),
});
type TaskInput = z.output<typeof taskSchema>;

/**
 * `task(description, prompt, subagent_type)`: runs a sub-agent to its end and
 * answers with its result. Progress goes to the graph's custom stream; the answer is a
 * ToolMessage named `task` with the structured result in `additional_kwargs`, plus an entry in
 * the thread's `delegations` ledger. A sub-agent never gets this tool, so it cannot nest.
 */
export function createTaskTool(options: TaskToolOptions): StructuredToolInterface {
  return tool(
    async (input: TaskInput, config: ToolRunnableConfig) => {
      const taskId = config.toolCall?.id ?? randomUUID();
      const startedAt = new Date().toISOString();
      const runId = stringOf(runOptionsOf(config).run_id);
      const answer = (outcome: SubagentOutcome, modelName: string | null) =>
        taskCommand({ taskId, input, outcome, modelName, runId, startedAt });

      const type = options.registry.resolve(input.subagent_type);
      if (!type) {
        const available = options.registry.available.join(", ");
        const error = `Unknown subagent type '${input.subagent_type}'. Available: ${available}`;
        return answer({ status: "failed", error, usage: null }, null);
      }
      if (type.name === BASH_SUBAGENT && !options.registry.bashAllowed) {
        return answer(
          { status: "failed", error: BASH_SUBAGENT_DISABLED_MESSAGE, usage: null },
          null,
        );
      }
      let model: SubagentModel;
      try {
        model = await options.resolveModel(type.model);
      } catch (error) {
        const message = `The sub-agent's model is unavailable: ${describeError(error)}`;
        return answer({ status: "failed", error: message, usage: null }, null);
      }

      const scope = threadScopeOf(config);
      const progress = taskProgress(writerOf(config), taskId, model.name);
      progress.started(input.description);
      const parent = parentStateOf(config);
      const request: SubagentRunRequest = {
        type: withSkillsPrompt(type, options.skills ?? []),
        prompt: input.prompt,
        model: model.model,
        tools: toolsFor(type, options.parentTools),
        middlewares: options.middlewares(model),
        sandbox: parent.sandbox,
        threadData: parent.threadData,
        identity: {
          thread_id: scope.threadId,
          user_id: scope.userId,
          ...(runId ? { run_id: runId } : {}),
        },
        onAiMessage: (message, index, usage) => progress.running(message, index, usage),
      };
      const callbacks = journalCallbacks(config.callbacks);
      if (callbacks) request.callbacks = callbacks;
      if (config.signal) request.signal = config.signal;
      if (options.logger) request.logger = options.logger;
      const outcome = await runSubagent(request);
      progress.ended(outcome);
      // The run itself is being cancelled: the sub-agent stopped with it; so does this call.
      if (config.signal?.aborted) throw cancellationOf(config.signal);
      return answer(outcome, model.name);
    },
    { name: TASK_TOOL, description: taskToolDescription(options.registry), schema: taskSchema },
  );
}

/**
 * The type with the run's skills it may use (its `skills` list, or all) listed after its own
 * system prompt, the way the lead agent's prompt lists them; unchanged when none remain.
 */
export function withSkillsPrompt(type: SubagentType, skills: readonly PromptSkill[]): SubagentType {
  const allowed = type.skills;
  const listed = allowed === null ? skills : skills.filter((skill) => allowed.includes(skill.name));
  if (listed.length === 0) return type;
  return { ...type, systemPrompt: `${type.systemPrompt}\n\n${renderSkillSystem(listed)}` };
}

/** The type's tools: its allow list (or all of the parent's), minus its deny list, never `task`. */
export function toolsFor(
  type: SubagentType,
  parentTools: readonly StructuredToolInterface[],
): StructuredToolInterface[] {
  const allowed = type.tools ? new Set(type.tools) : null;
  const denied = new Set([...type.disallowedTools, TASK_TOOL]);
  return parentTools.filter(
    (candidate) => (allowed === null || allowed.has(candidate.name)) && !denied.has(candidate.name),
  );
}

function taskToolDescription(registry: SubagentRegistry): string {
  const types = registry.available
    .map((name) => registry.resolve(name))
    .filter((type): type is SubagentType => type !== null)
    .map((type) => `- ${type.name}: ${type.description}`)
    .join("\n");
  return `Delegate a bounded task to a sub-agent. It works in its own context with the same thread files and sandbox, and its final report comes back as this tool's result.

Delegate when it clearly pays: independent pieces of work that can run in parallel, or a context-heavy investigation better kept out of your own context. Do not delegate steps that depend on each other across parallel sub-agents, work that edits the same files, or anything needing the user's input.

Sub-agent types:
${types}`;
}

interface TaskAnswer {
  taskId: string;
  input: TaskInput;
  outcome: SubagentOutcome;
  modelName: string | null;
  runId: string | undefined;
  startedAt: string;
}

/** The ToolMessage the lead agent reads, and the delegation recorded in the thread's ledger. */
function taskCommand(answer: TaskAnswer): Command {
  const { outcome } = answer;
  const kwargs = taskResultKwargs(outcome, answer.modelName);
  const entry: DelegationEntry = {
    id: answer.taskId,
    ...(answer.runId ? { run_id: answer.runId } : {}),
    description: answer.input.description,
    subagent_type: answer.input.subagent_type,
    status: outcome.status,
    ...(typeof kwargs.subagent_result_brief === "string"
      ? { result_brief: kwargs.subagent_result_brief }
      : {}),
    ...(typeof kwargs.subagent_result_sha256 === "string"
      ? { result_sha256: kwargs.subagent_result_sha256 }
      : {}),
    ...(outcome.stopReason ? { stop_reason: outcome.stopReason } : {}),
    created_at: answer.startedAt,
  };
  return new Command({
    update: {
      messages: [
        new ToolMessage({
          content: taskResultText(outcome),
          tool_call_id: answer.taskId,
          name: TASK_TOOL,
          additional_kwargs: kwargs,
        }),
      ],
      delegations: [entry],
    },
  });
}

/** LangGraph's stream writer travels in the node's config, which the tool call inherits. */
function writerOf(config: ToolRunnableConfig): ((chunk: unknown) => void) | undefined {
  const writer: unknown = "writer" in config ? config.writer : undefined;
  return typeof writer === "function" ? (chunk) => writer(chunk) : undefined;
}

/** LangGraph's handlers feeding the parent's stream modes: the sub-agent is not part of that stream. */
const PARENT_STREAM_HANDLERS = new Set([
  "StreamMessagesHandler",
  "StreamProtocolMessagesHandler",
  "StreamToolsHandler",
]);

/**
 * The tool call's callbacks (the run journal, tracers), so the sub-agent's model calls are
 * recorded and counted as `subagent:<type>` under this call, minus LangGraph's stream handlers.
 */
function journalCallbacks(callbacks: Callbacks | undefined): Callbacks | undefined {
  if (!callbacks) return undefined;
  if (Array.isArray(callbacks)) {
    return callbacks.filter(
      (handler) => !("name" in handler && PARENT_STREAM_HANDLERS.has(handler.name)),
    );
  }
  const copy = callbacks.copy();
  for (const handler of [...copy.handlers]) {
    if (PARENT_STREAM_HANDLERS.has(handler.name)) copy.removeHandler(handler);
  }
  return copy;
}

interface ParentState {
  sandbox: SandboxState | null;
  threadData: ThreadDataState | null;
}

/** The calling node's graph state (LangGraph keeps it in the task's scratchpad). */
function parentStateOf(config: ToolRunnableConfig): ParentState {
  const scratchpad: unknown = config.configurable?.__pregel_scratchpad;
  const state: unknown = isRecord(scratchpad) ? scratchpad.currentTaskInput : undefined;
  if (!isRecord(state)) return { sandbox: null, threadData: null };
  const sandboxId = isRecord(state.sandbox) ? stringOf(state.sandbox.sandbox_id) : undefined;
  return {
    sandbox: sandboxId ? { sandbox_id: sandboxId } : null,
    threadData: isRecord(state.thread_data) ? threadDataOf(state.thread_data) : null,
  };
}

function threadDataOf(value: Record<string, unknown>): ThreadDataState {
  const data: ThreadDataState = {};
  const workspace = stringOf(value.workspace_path);
  const uploads = stringOf(value.uploads_path);
  const outputs = stringOf(value.outputs_path);
  if (workspace) data.workspace_path = workspace;
  if (uploads) data.uploads_path = uploads;
  if (outputs) data.outputs_path = outputs;
  return data;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
