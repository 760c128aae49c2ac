import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { GraphStateAccess } from "./graph-state-access.js";

/*
 * The graphs a server runs, as the API describes them: the lead agent and every graph loaded
 * from configuration (`graphs:` in config.yaml, a `langgraph.json`). The gateway reads this to
 * answer `/assistants/{id}/graph|schemas|subgraphs` and to resolve a run's graph; the runtime
 * never reads it (it runs whatever graph id the admitted run names).
 */

/** The lead agent's graph id, also the id of its system assistant. */
export const LEAD_AGENT_GRAPH_ID = "lead_agent";

/** LangGraph's drawable graph (`GET /assistants/{id}/graph`). */
export interface GraphDrawing {
  nodes: unknown[];
  edges: unknown[];
}

/** LangGraph's `GraphSchema` (`GET /assistants/{id}/schemas`); a schema it cannot derive is null. */
export interface GraphSchemas {
  graph_id: string;
  input_schema: unknown;
  output_schema: unknown;
  state_schema: unknown;
  config_schema: unknown;
  context_schema: unknown;
}

/**
 * One subgraph's schemas (`GET /assistants/{id}/subgraphs`): the `GraphSchema` fields, and the
 * same schemas under LangGraph.js's server's own keys (`state`, `input`, `output`, `config`).
 */
export interface SubgraphSchemas extends GraphSchemas {
  state: unknown;
  input: unknown;
  output: unknown;
  config: unknown;
}

/** One served graph's description. */
export interface ServedGraph {
  graphId: string;
  /** What `/api/info` reports as the server's agent when this graph is the default. */
  kind: string;
  name: string;
  description: string;
  /** The graph's drawing; `xray` draws subgraphs inline (true, or a depth). */
  drawing(options?: { xray?: boolean | number }): Promise<GraphDrawing>;
  schemas(): Promise<GraphSchemas>;
  /** Subgraph schemas by namespace (`parent|child`); `recurse` descends into subgraphs' subgraphs. */
  subgraphs(options?: {
    namespace?: string;
    recurse?: boolean;
  }): Promise<Record<string, SubgraphSchemas>>;
  /**
   * The config and context the graph's system assistant carries (`LANGGRAPH_CONFIG` in a
   * `langgraph.json`'s env); runs of that assistant merge them under their own.
   */
  defaults?: { config?: Record<string, unknown>; context?: Record<string, unknown> };
  /**
   * Thread state read and written through the graph itself (its reducers, `next`, tasks and
   * subgraph state), over the given saver; absent for a graph the gateway reads from the saver
   * alone (the lead agent).
   */
  stateAccess?(options: {
    checkpointer: BaseCheckpointSaver;
    store?: BaseStore;
    /**
     * The config a graph built per run (a factory export) is built with: the thread's (its
     * assistant's and last run's `configurable`); default: the graph's `defaults`.
     */
    config?: Record<string, unknown>;
  }): Promise<GraphStateAccess>;
}

/** The served graphs, in the order they were configured; the lead agent first. */
export interface GraphCatalog {
  list(): readonly ServedGraph[];
  get(graphId: string): ServedGraph | null;
}

/** A catalog of a fixed list of graphs. */
export function staticGraphCatalog(graphs: readonly ServedGraph[]): GraphCatalog {
  const byId = new Map(graphs.map((graph) => [graph.graphId, graph]));
  return { list: () => graphs, get: (graphId) => byId.get(graphId) ?? null };
}

/** A graph that describes nothing beyond its name (drawing empty, schemas null). */
export function undescribedGraph(
  graphId: string,
  text: { kind?: string; name?: string; description?: string } = {},
): ServedGraph {
  const schemas: GraphSchemas = {
    graph_id: graphId,
    input_schema: null,
    output_schema: null,
    state_schema: null,
    config_schema: null,
    context_schema: null,
  };
  return {
    graphId,
    kind: text.kind ?? graphId,
    name: text.name ?? graphId,
    description: text.description ?? "",
    drawing: async () => ({ nodes: [], edges: [] }),
    schemas: async () => schemas,
    subgraphs: async () => ({}),
  };
}
