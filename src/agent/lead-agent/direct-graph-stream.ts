import { ensureConfig } from "@langchain/core/runnables";
import type { LeadAgentGraph } from "./create-lead-agent.js";

type GraphInput = Parameters<LeadAgentGraph["_streamIterator"]>[0];
type GraphStreamOptions = NonNullable<Parameters<LeadAgentGraph["_streamIterator"]>[1]>;

/**
 * The graph's chunks straight from its stream iterator, as `graph.stream()` yields them but
 * without the two web `ReadableStream`s and the per-chunk callback-manager setup that
 * `stream()` wraps around it: every token of every run crosses those layers, and they cost about
 * a third of LangGraph's per-chunk CPU (see docs/performance.md).
 *
 * What `stream()` adds is kept: the config normalised as `Runnable.stream` does
 * (`ensureConfig`: defaults, the graph's recursion limit, `timeout` → signal), and an abort of
 * the graph's tasks when the consumer stops early (the iterator's cleanup waits for the graph to
 * finish, so without the abort an early `break` would wait for the whole run).
 */
export function directGraphStream(
  graph: LeadAgentGraph,
  input: GraphInput,
  options: GraphStreamOptions,
): AsyncIterable<unknown> {
  const stopped = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, stopped.signal])
    : stopped.signal;
  const config = ensureConfig<GraphStreamOptions>({
    recursionLimit: graph.config?.recursionLimit,
    ...options,
    signal,
  });
  return {
    [Symbol.asyncIterator]: () => {
      const iterator = graph._streamIterator(input, config);
      let finished = false;
      const stop = async (): Promise<IteratorResult<unknown>> => {
        if (!finished) stopped.abort(new Error("the stream's consumer stopped reading"));
        finished = true;
        await iterator.return(undefined);
        return { done: true, value: undefined };
      };
      return {
        next: async () => {
          try {
            const result = await iterator.next();
            if (result.done) finished = true;
            return result;
          } catch (error) {
            finished = true;
            throw error;
          }
        },
        return: stop,
        throw: async (error: unknown) => {
          await stop();
          throw error;
        },
      };
    },
  };
}
