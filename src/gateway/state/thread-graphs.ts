import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { GraphCatalog } from "../../ports/graph-catalog.js";
import type { GraphStateAccess } from "../../ports/graph-state-access.js";
import type { RunStore } from "../../ports/run-store.js";
import type { RunRow } from "../../ports/run-types.js";
import type { ThreadRow, ThreadStore } from "../../ports/thread-store.js";

/** Where a thread's graph is looked up: the served graphs, the thread rows and their runs. */
export interface ThreadGraphSource {
  graphs: GraphCatalog;
  threads: Pick<ThreadStore, "get">;
  runs?: Pick<RunStore, "listByThread">;
  /** Given to graphs whose state access needs the server's store. */
  store?: BaseStore;
}

/**
 * Which served graph a thread's state belongs to, and that graph's state access over the
 * server's saver. The graph is the thread's `metadata.graph_id`; failing that, the graph its
 * newest run ran (its `graph_id`, else its assistant); failing that, the thread's assistant.
 * A graph without state access (the lead agent) answers null: its state is read from the saver.
 */
/** State accesses kept per (graph, config); a factory graph is rebuilt for each config. */
const MAX_CACHED_ACCESSES = 128;

export class ThreadGraphs {
  private readonly accesses = new Map<string, Promise<GraphStateAccess | null>>();

  constructor(
    private readonly checkpointer: BaseCheckpointSaver,
    private readonly source: ThreadGraphSource,
  ) {}

  /** The state access of the thread's graph; `row` saves a read when the caller has it. */
  async forThread(threadId: string, row?: ThreadRow | null): Promise<GraphStateAccess | null> {
    // A server of the lead agent alone reads every thread from the saver: no lookups at all.
    if (!this.source.graphs.list().some((graph) => graph.stateAccess !== undefined)) return null;
    const thread = row ?? (await this.source.threads.get(threadId));
    const [run] = (await this.source.runs?.listByThread(threadId, { limit: 1 })) ?? [];
    const graphId = this.graphIdOf(thread, run);
    return graphId === null ? null : this.forGraph(graphId, configurableOf(run));
  }

  /**
   * A graph's state access over this saver, built once per graph and config: a graph exported
   * as a factory is built with the config of the thread's newest run (its assistant's merged in),
   * so the nodes that run had are the nodes its state is written as.
   */
  forGraph(
    graphId: string,
    configurable?: Record<string, unknown>,
  ): Promise<GraphStateAccess | null> {
    const key = `${graphId}\u0000${configurable ? JSON.stringify(configurable) : ""}`;
    const known = this.accesses.get(key);
    if (known) return known;
    const graph = this.source.graphs.get(graphId);
    const built =
      graph?.stateAccess === undefined
        ? Promise.resolve(null)
        : graph.stateAccess({
            checkpointer: this.checkpointer,
            ...(this.source.store ? { store: this.source.store } : {}),
            ...(configurable ? { config: { configurable } } : {}),
          });
    if (this.accesses.size >= MAX_CACHED_ACCESSES) {
      const oldest = this.accesses.keys().next();
      if (!oldest.done) this.accesses.delete(oldest.value);
    }
    this.accesses.set(key, built);
    // A graph that failed to build is tried again by the next request.
    built.catch(() => this.accesses.delete(key));
    return built;
  }

  private graphIdOf(row: ThreadRow | null, run: RunRow | undefined): string | null {
    const named = row?.metadata.graph_id;
    if (typeof named === "string" && this.served(named)) return named;
    for (const candidate of [run?.kwargs.graph_id, run?.assistant_id, row?.assistant_id]) {
      if (typeof candidate === "string" && this.served(candidate)) return candidate;
    }
    return null;
  }

  private served(graphId: string): boolean {
    return this.source.graphs.get(graphId) !== null;
  }
}

/** The `configurable` the thread's newest run was given (null: no run yet). */
function configurableOf(run: RunRow | undefined): Record<string, unknown> | undefined {
  const config = run?.kwargs.config;
  if (typeof config !== "object" || config === null) return undefined;
  const configurable = Reflect.get(config, "configurable");
  return typeof configurable === "object" && configurable !== null && !Array.isArray(configurable)
    ? (configurable as Record<string, unknown>)
    : undefined;
}
