import type { RunStreamMode } from "../../ports/agent.js";
import type { RunInvocation } from "../../ports/run-types.js";
import type { ApiStreamMode, RunCreateBody } from "./run-schemas.js";

export const DEFAULT_RECURSION_LIMIT = 100;

/** Keys a client must not set in `configurable`: the server stamps or derives them. */
const SERVER_OWNED_CONFIGURABLE = new Set([
  "thread_id",
  "run_id",
  "user_id",
  "checkpoint_id",
  "checkpoint_ns",
  "checkpoint_map",
  "langgraph_auth_user",
  "langgraph_auth_user_id",
  "langgraph_auth_permissions",
]);

export interface InvocationContext {
  threadId: string;
  userId: string;
  maxRecursionLimit: number;
  /**
   * Keep a `user_id` the client put in `configurable` (an unauthenticated server running a
   * graph that does not scope its data by it); otherwise the server's user id replaces it.
   */
  clientNamesUser?: boolean;
}

/**
 * API stream modes → the run's stream modes, deduplicated, `values` when none is given:
 * `messages-tuple` is LangGraph's `messages`, the API's `messages` is `messages-partial`.
 */
export function graphStreamModes(
  modes: ApiStreamMode | ApiStreamMode[] | null | undefined,
): RunStreamMode[] {
  const list: ApiStreamMode[] = modes == null ? ["values"] : Array.isArray(modes) ? modes : [modes];
  const graph = list.map((mode): RunStreamMode => {
    if (mode === "messages-tuple") return "messages";
    if (mode === "messages") return "messages-partial";
    return mode;
  });
  return graph.length > 0 ? [...new Set(graph)] : ["values"];
}

/**
 * Turn a run-creation body into the invocation the worker executes. The config uses LangGraph.js
 * option names (`recursionLimit`, `durability`, `context`) because the worker passes it to
 * `graph.stream` as is. Fields are picked one by one, so the host-only `origin` and
 * `artifact_imports` can never come from a client body (only the plugin run host sets them).
 */
export function buildInvocation(body: RunCreateBody, ctx: InvocationContext): RunInvocation {
  const raw = body.config ?? {};
  const configurable: Record<string, unknown> = {};
  const given = { ...(body.context ?? {}), ...(raw.configurable ?? {}) };
  for (const [key, value] of Object.entries(given)) {
    if (!SERVER_OWNED_CONFIGURABLE.has(key) && !key.startsWith("__")) configurable[key] = value;
  }
  const named = ctx.clientNamesUser ? given.user_id : undefined;
  configurable.user_id = typeof named === "string" && named.length > 0 ? named : ctx.userId;
  const checkpointId = body.checkpoint?.checkpoint_id ?? body.checkpoint_id ?? null;
  if (checkpointId) {
    configurable.checkpoint_id = checkpointId;
    configurable.checkpoint_ns = body.checkpoint?.checkpoint_ns ?? "";
  }
  const durability =
    body.durability ??
    (body.checkpoint_during == null ? null : body.checkpoint_during ? "async" : "exit");
  const config: Record<string, unknown> = {
    configurable,
    recursionLimit: Math.min(raw.recursion_limit ?? DEFAULT_RECURSION_LIMIT, ctx.maxRecursionLimit),
    ...(raw.tags ? { tags: raw.tags } : {}),
    ...(raw.run_name ? { run_name: raw.run_name } : {}),
    ...(durability ? { durability } : {}),
    // LangGraph writes a run's config metadata into each checkpoint it makes, so history can be
    // filtered by the run's metadata (as on the platform).
    ...(body.metadata && Object.keys(body.metadata).length > 0 ? { metadata: body.metadata } : {}),
    ...(body.context ? { context: { ...body.context, user_id: ctx.userId } } : {}),
  };
  return {
    input: body.input ?? null,
    ...(body.command ? { command: body.command } : {}),
    config,
    stream_mode: graphStreamModes(body.stream_mode),
    stream_subgraphs: body.stream_subgraphs ?? false,
    ...(body.interrupt_before ? { interrupt_before: body.interrupt_before } : {}),
    ...(body.interrupt_after ? { interrupt_after: body.interrupt_after } : {}),
    ...(body.webhook ? { webhook: body.webhook } : {}),
    ...langsmithProjectOf(body.langsmith_tracer),
  };
}

/** The platform's `langsmith_tracer: {project_name}`: the project of this run's LangSmith trace. */
function langsmithProjectOf(tracer: Record<string, unknown> | null | undefined): {
  langsmith_project?: string;
} {
  const name = tracer?.project_name;
  return typeof name === "string" && name.length > 0 && name.length <= 200
    ? { langsmith_project: name }
    : {};
}

/** The parts of an assistant a run starts from. */
export interface AssistantDefaults {
  config: Record<string, unknown>;
  context: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/**
 * The run body with its assistant's config and context underneath, as the platform merges them:
 * `configurable` and `context` key by key, other config keys (tags, recursion limit, run name)
 * whole; the run's own value wins every time. Server-owned keys are still dropped later by
 * `buildInvocation`, whichever side they came from.
 */
export function withAssistantDefaults(
  body: RunCreateBody,
  assistant: AssistantDefaults,
): RunCreateBody {
  const base = assistant.config;
  const run = body.config ?? {};
  const configurable = {
    ...(isRecord(base.configurable) ? base.configurable : {}),
    ...(run.configurable ?? {}),
  };
  const config: NonNullable<RunCreateBody["config"]> = {
    ...(isStringArray(base.tags) ? { tags: base.tags } : {}),
    ...(typeof base.recursion_limit === "number" ? { recursion_limit: base.recursion_limit } : {}),
    ...(typeof base.run_name === "string" ? { run_name: base.run_name } : {}),
    ...Object.fromEntries(Object.entries(run).filter(([, value]) => value != null)),
    configurable,
  };
  const hasContext = body.context != null || Object.keys(assistant.context).length > 0;
  return {
    ...body,
    config,
    ...(hasContext ? { context: { ...assistant.context, ...(body.context ?? {}) } } : {}),
  };
}
