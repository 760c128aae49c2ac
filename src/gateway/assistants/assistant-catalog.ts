import { NotFoundError } from "../../core/errors.js";
import {
  type GraphCatalog,
  type GraphDrawing,
  type GraphSchemas,
  LEAD_AGENT_GRAPH_ID,
  type ServedGraph,
} from "../../ports/graph-catalog.js";

export const LEAD_AGENT_ASSISTANT_ID = LEAD_AGENT_GRAPH_ID;

/** LangGraph's `Assistant` object. */
export interface ApiAssistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  version: number;
  created_at: string;
  updated_at: string;
}

/**
 * The assistants this server runs: one system assistant per served graph, whose id is the graph
 * id. A run names an assistant (or a graph id) and executes that graph.
 */
export class AssistantCatalog {
  private readonly assistants: ApiAssistant[];

  constructor(
    readonly graphs: GraphCatalog,
    startedAt = new Date().toISOString(),
  ) {
    this.assistants = graphs.list().map((graph) => ({
      assistant_id: graph.graphId,
      graph_id: graph.graphId,
      name: graph.name,
      description: graph.description,
      config: {},
      context: {},
      metadata: { created_by: "system", agent: graph.kind },
      version: 1,
      created_at: startedAt,
      updated_at: startedAt,
    }));
  }

  /** What `/api/info` names as the server's agent: the first graph's kind. */
  get defaultKind(): string {
    return this.graphs.list()[0]?.kind ?? LEAD_AGENT_GRAPH_ID;
  }

  list(): ApiAssistant[] {
    return this.assistants;
  }

  get(assistantId: string): ApiAssistant {
    const found = this.assistants.find((a) => a.assistant_id === assistantId);
    if (!found) {
      const ids = this.assistants.map((a) => `"${a.assistant_id}"`).join(", ");
      throw new NotFoundError(`Assistant ${assistantId} not found; this server runs ${ids}.`);
    }
    return found;
  }

  async graph(
    assistantId: string,
    options: { xray?: boolean | number } = {},
  ): Promise<GraphDrawing> {
    return this.servedGraphOf(assistantId).drawing(options);
  }

  async schemas(assistantId: string): Promise<GraphSchemas> {
    return this.servedGraphOf(assistantId).schemas();
  }

  async subgraphs(
    assistantId: string,
    options: { namespace?: string; recurse?: boolean } = {},
  ): Promise<Record<string, GraphSchemas>> {
    return this.servedGraphOf(assistantId).subgraphs(options);
  }

  private servedGraphOf(assistantId: string): ServedGraph {
    const { graph_id: graphId } = this.get(assistantId);
    const graph = this.graphs.get(graphId);
    if (!graph) throw new NotFoundError(`Graph ${graphId} is not served by this server.`);
    return graph;
  }
}
