/**
 * Shared setup for the middleware suites: a real compiled lead-agent graph (the reference chain
 * from `buildLeadMiddlewares`) driven by the ScriptedChatModel in a temporary FAWN_HOME, with an
 * evidence log standing in for the run journal and a callback that records every model request.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import {
  createLeadAgent,
  type LeadAgentGraph,
} from "../../../src/agent/lead-agent/create-lead-agent.js";
import type { LeadRunOptions } from "../../../src/agent/lead-agent/run-options.js";
import type { ThreadState } from "../../../src/agent/lead-agent/thread-state.js";
import {
  buildLeadMiddlewares,
  type LeadMiddlewareOptions,
  type MiddlewareConfigSections,
  parseLeadMiddlewareSettings,
} from "../../../src/agent/middlewares/lead-middlewares.js";
import {
  EVIDENCE_CONFIG_KEY,
  type EvidenceRecorder,
} from "../../../src/agent/middlewares/runtime.js";
import type { AgentMiddleware } from "../../../src/agent/middlewares/types.js";
import { parseScript } from "../../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../../src/agent/scripted/scripted-chat-model.js";
import { FawnPaths } from "../../../src/core/paths.js";

export interface EvidenceEntry {
  tag: string;
  name: string;
  hook: string;
  action: string;
  changes?: unknown;
}

/** The run journal's `recordMiddleware`, kept in memory. */
export class EvidenceLog implements EvidenceRecorder {
  readonly entries: EvidenceEntry[] = [];

  recordMiddleware(tag: string, record: Omit<EvidenceEntry, "tag">): boolean {
    this.entries.push({ tag, ...record });
    return true;
  }

  actions(tag: string): string[] {
    return this.entries.filter((entry) => entry.tag === tag).map((entry) => entry.action);
  }
}

export interface ModelRequestRecord {
  messages: BaseMessage[];
  tags: string[];
  /** Names of the tools bound to the call. */
  tools: string[];
}

/** Every chat-model request of a run, with its tags (who called). */
export class ModelRequests extends BaseCallbackHandler {
  name = "model_requests";
  readonly all: ModelRequestRecord[] = [];

  override handleChatModelStart(
    _llm: unknown,
    messages: BaseMessage[][],
    _runId: string,
    _parent?: string,
    extra?: Record<string, unknown>,
    tags?: string[],
  ): void {
    this.all.push({ messages: messages[0] ?? [], tags: tags ?? [], tools: toolNamesOf(extra) });
  }

  /** Requests made by the lead agent itself (not by middlewares). */
  get lead(): ModelRequestRecord[] {
    return this.all.filter((request) => request.tags.includes("lead_agent"));
  }

  by(caller: string): ModelRequestRecord[] {
    return this.all.filter((request) => request.tags.includes(caller));
  }
}

function toolNamesOf(extra: Record<string, unknown> | undefined): string[] {
  const options: unknown = extra?.options;
  if (typeof options !== "object" || options === null || !("tools" in options)) return [];
  const tools: unknown = options.tools;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((item: unknown) =>
    typeof item === "object" && item !== null && "name" in item && typeof item.name === "string"
      ? [item.name]
      : [],
  );
}

export interface AgentSetup {
  /** Script rules, or a whole script document (`{rules, middleware_replies}`). */
  script?: unknown;
  model?: BaseChatModel;
  tools?: StructuredToolInterface[];
  /** config.yaml sections (`tool_output`, `title`, …). */
  sections?: MiddlewareConfigSections;
  run?: Partial<LeadRunOptions>;
  supportsVision?: boolean;
  middlewareOptions?: Pick<LeadMiddlewareOptions, "modelRetry" | "externalizeSeams">;
  /** Replace the chain entirely (to test one middleware alone). */
  middlewares?: AgentMiddleware[];
  systemPrompt?: string;
}

export interface TestAgent {
  graph: LeadAgentGraph;
  home: string;
  paths: FawnPaths;
  model: BaseChatModel;
  evidence: EvidenceLog;
  requests: ModelRequests;
  /** One run on a thread: the given user message (or none), then the run's final state. */
  run(
    threadId: string,
    input: string | HumanMessage | null,
    extra?: RunExtra,
  ): Promise<ThreadState>;
  dispose(): Promise<void>;
}

export interface RunExtra {
  context?: Record<string, unknown>;
  runId?: string;
  interruptBefore?: Array<"model" | "tools">;
  signal?: AbortSignal;
}

const RUN_DEFAULTS: LeadRunOptions = {
  modelName: undefined,
  thinkingEnabled: false,
  reasoningEffort: undefined,
  planMode: false,
  subagentEnabled: false,
  maxConcurrentSubagents: undefined,
  maxTotalSubagents: undefined,
  nonInteractive: false,
};

export async function createTestAgent(setup: AgentSetup): Promise<TestAgent> {
  const home = await mkdtemp(join(tmpdir(), "fawn-mw-"));
  const paths = new FawnPaths(home);
  const model =
    setup.model ??
    new ScriptedChatModel({ script: parseScript(setup.script ?? [], "test-script") });
  const middlewares =
    setup.middlewares ??
    buildLeadMiddlewares({
      settings: parseLeadMiddlewareSettings(setup.sections ?? {}),
      paths,
      run: { ...RUN_DEFAULTS, ...setup.run },
      supportsVision: setup.supportsVision ?? false,
      modelRetry: { sleep: async () => undefined },
      ...setup.middlewareOptions,
    });
  const graph = createLeadAgent({
    model,
    tools: setup.tools ?? [],
    middlewares,
    checkpointer: new MemorySaver(),
    ...(setup.systemPrompt ? { systemPrompt: setup.systemPrompt } : {}),
  });
  const evidence = new EvidenceLog();
  const requests = new ModelRequests();
  let runs = 0;
  return {
    graph,
    home,
    paths,
    model,
    evidence,
    requests,
    async run(threadId, input, extra = {}) {
      runs += 1;
      const message = typeof input === "string" ? new HumanMessage(input) : input;
      const runId = extra.runId ?? `run-${runs}`;
      return graph.invoke(message ? { messages: [message] } : null, {
        configurable: { thread_id: threadId, run_id: runId, [EVIDENCE_CONFIG_KEY]: evidence },
        context: { thread_id: threadId, run_id: runId, user_id: "default", ...extra.context },
        callbacks: [requests],
        recursionLimit: 100,
        ...(extra.interruptBefore ? { interruptBefore: extra.interruptBefore } : {}),
        ...(extra.signal ? { signal: extra.signal } : {}),
      });
    },
    dispose: () => rm(home, { recursive: true, force: true }),
  };
}

export function typesOf(messages: readonly BaseMessage[]): string[] {
  return messages.map((message) => message.getType());
}
