import { NotFoundError } from "../../core/errors.js";

export const LEAD_AGENT_ASSISTANT_ID = "lead_agent";

/** How the served graph describes itself (`/assistants/{id}/graph` and `/schemas`). */
export interface AgentDescription {
  /** Shown in `/api/info`: `lead_agent`, or `echo` for the built-in placeholder graph. */
  kind: string;
  name: string;
  description: string;
  /** LangGraph's drawable graph (`nodes`, `edges`), when the graph can describe itself. */
  graph?: { nodes: unknown[]; edges: unknown[] };
  schemas?: Record<string, unknown>;
}

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
 * The assistants this server runs: one, `lead_agent`. Every run executes it; the id is accepted
 * as assistant id and as graph id.
 */
export class AssistantCatalog {
  private readonly assistant: ApiAssistant;

  constructor(
    readonly agent: AgentDescription,
    startedAt = new Date().toISOString(),
  ) {
    this.assistant = {
      assistant_id: LEAD_AGENT_ASSISTANT_ID,
      graph_id: LEAD_AGENT_ASSISTANT_ID,
      name: agent.name,
      description: agent.description,
      config: {},
      context: {},
      metadata: { created_by: "system", agent: agent.kind },
      version: 1,
      created_at: startedAt,
      updated_at: startedAt,
    };
  }

  list(): ApiAssistant[] {
    return [this.assistant];
  }

  get(assistantId: string): ApiAssistant {
    if (assistantId !== LEAD_AGENT_ASSISTANT_ID) {
      throw new NotFoundError(
        `Assistant ${assistantId} not found; this server runs "${LEAD_AGENT_ASSISTANT_ID}".`,
      );
    }
    return this.assistant;
  }

  graph(assistantId: string): { nodes: unknown[]; edges: unknown[] } {
    this.get(assistantId);
    return this.agent.graph ?? { nodes: [], edges: [] };
  }

  schemas(assistantId: string): Record<string, unknown> {
    this.get(assistantId);
    return {
      graph_id: LEAD_AGENT_ASSISTANT_ID,
      input_schema: null,
      output_schema: null,
      state_schema: null,
      config_schema: null,
      context_schema: null,
      ...this.agent.schemas,
    };
  }
}
