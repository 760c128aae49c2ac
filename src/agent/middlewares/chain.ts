import type { ThreadState, ThreadStateUpdate } from "../lead-agent/thread-state.js";
import { createMiddlewareRuntime, type RuntimeSource } from "./runtime.js";
import { applyUpdate } from "./state-view.js";
import type { AgentMiddleware, ModelHandler, ToolHandler } from "./types.js";

export type StateHook = "beforeAgent" | "beforeModel" | "afterModel" | "afterAgent";

export interface StateHooksOutcome {
  /** The state with every hook's update applied (what the next step sees). */
  state: ThreadState;
  /** The updates, in the order the graph must commit them. */
  updates: ThreadStateUpdate[];
  jumpTo: "model" | undefined;
}

/** `before*` hooks run in list order, `after*` hooks in reverse. */
export async function runStateHooks(
  hook: StateHook,
  middlewares: readonly AgentMiddleware[],
  state: ThreadState,
  source: RuntimeSource,
): Promise<StateHooksOutcome> {
  const ordered = hook.startsWith("after") ? [...middlewares].reverse() : middlewares;
  const updates: ThreadStateUpdate[] = [];
  let view = state;
  let jumpTo: "model" | undefined;
  for (const middleware of ordered) {
    const run = middleware[hook];
    if (!run) continue;
    const result = await run.call(middleware, view, createMiddlewareRuntime(source, middleware));
    if (result?.update) {
      updates.push(result.update);
      view = applyUpdate(view, result.update);
    }
    jumpTo ??= result?.jumpTo;
  }
  return { state: view, updates, jumpTo };
}

export function hasHook(middlewares: readonly AgentMiddleware[], hook: StateHook): boolean {
  return middlewares.some((middleware) => middleware[hook] !== undefined);
}

/** Wraps the model call; the first middleware is the outermost wrapper. */
export function composeModelHandler(
  middlewares: readonly AgentMiddleware[],
  base: ModelHandler,
  source: RuntimeSource,
): ModelHandler {
  return middlewares.reduceRight<ModelHandler>((next, middleware) => {
    const wrap = middleware.wrapModelCall;
    if (!wrap) return next;
    const runtime = createMiddlewareRuntime(source, middleware);
    return (request) => wrap.call(middleware, request, next, runtime);
  }, base);
}

/** Wraps one tool call; the first middleware is the outermost wrapper. */
export function composeToolHandler(
  middlewares: readonly AgentMiddleware[],
  base: ToolHandler,
  source: RuntimeSource,
): ToolHandler {
  return middlewares.reduceRight<ToolHandler>((next, middleware) => {
    const wrap = middleware.wrapToolCall;
    if (!wrap) return next;
    const runtime = createMiddlewareRuntime(source, middleware);
    return (request) => wrap.call(middleware, request, next, runtime);
  }, base);
}
