import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { GraphCatalog } from "../../ports/graph-catalog.js";
import type { GraphStateAccess } from "../../ports/graph-state-access.js";
import type { RunStore } from "../../ports/run-store.js";
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
    const graphId = await this.graphIdOf(threadId, row);
    return graphId === null ? null : this.forGraph(graphId);
  }

  /** A graph's state access, built once per graph (its compiled graph is bound to this saver). */
  forGraph(graphId: string): Promise<GraphStateAccess | null> {
    const known = this.accesses.get(graphId);
    if (known) return known;
    const graph = this.source.graphs.get(graphId);
    const built =
      graph?.stateAccess === undefined
        ? Promise.resolve(null)
        : graph.stateAccess({
            checkpointer: this.checkpointer,
            ...(this.source.store ? { store: this.source.store } : {}),
          });
    this.accesses.set(graphId, built);
    // A graph that failed to build is tried again by the next request.
    built.catch(() => this.accesses.delete(graphId));
    return built;
  }

  private async graphIdOf(threadId: string, given?: ThreadRow | null): Promise<string | null> {
    const row = given ?? (await this.source.threads.get(threadId));
    const named = row?.metadata.graph_id;
    if (typeof named === "string" && this.served(named)) return named;
    const [run] = (await this.source.runs?.listByThread(threadId, { limit: 1 })) ?? [];
    for (const candidate of [run?.kwargs.graph_id, run?.assistant_id, row?.assistant_id]) {
      if (typeof candidate === "string" && this.served(candidate)) return candidate;
    }
    return null;
  }

  private served(graphId: string): boolean {
    return this.source.graphs.get(graphId) !== null;
  }
}
