import { isoNow } from "../../core/clock.js";
import { ConflictError, FawnError, NotFoundError } from "../../core/errors.js";
import type {
  AssistantFilter,
  AssistantPatch,
  AssistantRow,
  AssistantSearch,
  AssistantStore,
  AssistantVersionQuery,
} from "../../ports/assistant-store.js";
import {
  type GraphCatalog,
  type GraphDrawing,
  type GraphSchemas,
  LEAD_AGENT_GRAPH_ID,
  type ServedGraph,
} from "../../ports/graph-catalog.js";
import type { Principal } from "../auth/principal.js";
import {
  type ApiAssistant,
  type ApiAssistantVersion,
  toApiAssistant,
  toApiAssistantVersion,
} from "./api-assistant.js";
import {
  platformSystemAssistantId,
  systemAssistantOf,
  systemAssistantRow,
} from "./system-assistants.js";

export type { ApiAssistant } from "./api-assistant.js";

export const LEAD_AGENT_ASSISTANT_ID = LEAD_AGENT_GRAPH_ID;

/** A create request: the assistant's fields before the store versions and stamps it. */
export type NewApiAssistant = Omit<ApiAssistant, "version" | "created_at" | "updated_at"> & {
  if_exists: "raise" | "do_nothing";
};

export function assistantNotFound(assistantId: string): NotFoundError {
  return new NotFoundError(
    `Assistant not found: no assistant "${assistantId}" is visible to you; POST /assistants/search lists them.`,
  );
}

/**
 * The assistants this server runs, on behalf of one caller: one system assistant per served graph
 * (its id is the graph id; written to the store on first use, as the platform does at start) and
 * the assistants callers create. A caller sees the system assistants and the ones they created;
 * with auth on, only that user may change theirs and nobody may change a system assistant.
 */
export class AssistantCatalog {
  private seeded: Promise<void> | null = null;
  private readonly now: () => string;
  private readonly startedAt: string;

  constructor(
    readonly graphs: GraphCatalog,
    private readonly store: AssistantStore,
    options: { now?: () => string } = {},
  ) {
    this.now = options.now ?? (() => isoNow());
    this.startedAt = this.now();
  }

  /** What `/api/info` names as the server's agent: the first graph's kind. */
  get defaultKind(): string {
    return this.graphs.list()[0]?.kind ?? LEAD_AGENT_GRAPH_ID;
  }

  /** Writes each served graph's system assistant unless the store has it (once per process). */
  ready(): Promise<void> {
    this.seeded ??= Promise.all(
      this.graphs.list().map((graph) => this.store.create(systemAssistantOf(graph, this.now()))),
    ).then(
      () => undefined,
      (error: unknown) => {
        this.seeded = null; // a later call retries (e.g. the database was briefly down)
        throw error;
      },
    );
    return this.seeded;
  }

  /**
   * The assistant a run names: an assistant id the caller sees, or a served graph id (whose
   * system assistant answers even after it was deleted).
   */
  async resolveForRun(assistantIdOrGraph: string, userId: string): Promise<ApiAssistant> {
    const row = await this.find(assistantIdOrGraph, userId);
    if (!row) {
      const graphs = this.graphs
        .list()
        .map((g) => `"${g.graphId}"`)
        .join(", ");
      throw new NotFoundError(
        `No assistant found for "${assistantIdOrGraph}": name an assistant you can see or a served graph (${graphs}).`,
      );
    }
    this.servedGraph(row.graph_id, row.assistant_id);
    return toApiAssistant(row);
  }

  async get(assistantId: string, caller: Principal): Promise<ApiAssistant> {
    return toApiAssistant(await this.visible(assistantId, caller));
  }

  async create(body: NewApiAssistant, caller: Principal): Promise<ApiAssistant> {
    await this.ready();
    this.servedGraph(body.graph_id, body.assistant_id);
    const { if_exists: ifExists, ...fields } = body;
    const { assistant, created } = await this.store.create({
      ...fields,
      user_id: caller.userId,
      created_at: this.now(),
    });
    const visible = assistant.user_id === null || assistant.user_id === caller.userId;
    if (!created && (ifExists === "raise" || !visible)) {
      throw new ConflictError(
        `Assistant already exists: "${body.assistant_id}" is taken; pick another id or send if_exists "do_nothing".`,
      );
    }
    return toApiAssistant(assistant);
  }

  async update(
    assistantId: string,
    patch: AssistantPatch,
    caller: Principal,
  ): Promise<ApiAssistant> {
    const row = await this.writable(assistantId, caller);
    if (patch.graph_id !== undefined) this.servedGraph(patch.graph_id, row.assistant_id);
    const updated = await this.store.update(
      row.assistant_id,
      patch,
      this.now(),
      this.scope(caller),
    );
    if (!updated) throw assistantNotFound(assistantId);
    return toApiAssistant(updated);
  }

  /**
   * Deletes the assistant and its versions. `beforeDelete` (the thread sweep of
   * `delete_threads`) runs once the caller may delete it, so a busy thread leaves it in place.
   */
  async delete(
    assistantId: string,
    caller: Principal,
    beforeDelete?: (assistantId: string) => Promise<void>,
  ): Promise<string> {
    const row = await this.writable(assistantId, caller);
    await beforeDelete?.(row.assistant_id);
    if (!(await this.store.delete(row.assistant_id, this.scope(caller)))) {
      throw assistantNotFound(assistantId);
    }
    return row.assistant_id;
  }

  async setLatest(assistantId: string, version: number, caller: Principal): Promise<ApiAssistant> {
    const row = await this.writable(assistantId, caller);
    const result = await this.store.setLatest(
      row.assistant_id,
      version,
      this.now(),
      this.scope(caller),
    );
    if (result.status === "assistant_not_found") throw assistantNotFound(assistantId);
    if (result.status === "version_not_found") {
      throw new NotFoundError(
        `Assistant version not found: "${assistantId}" has no version ${version}; POST /assistants/${assistantId}/versions lists them.`,
      );
    }
    return toApiAssistant(result.assistant);
  }

  async versions(
    assistantId: string,
    query: Omit<AssistantVersionQuery, "visibleTo">,
    caller: Principal,
  ): Promise<ApiAssistantVersion[]> {
    const row = await this.visible(assistantId, caller);
    const versions = await this.store.versions(row.assistant_id, {
      ...query,
      ...this.scope(caller),
    });
    return versions.map(toApiAssistantVersion);
  }

  async search(
    query: Omit<AssistantSearch, "visibleTo">,
    caller: Principal,
  ): Promise<ApiAssistant[]> {
    await this.ready();
    const rows = await this.store.search({ ...query, ...this.scope(caller) });
    return rows.map(toApiAssistant);
  }

  async count(query: Omit<AssistantFilter, "visibleTo">, caller: Principal): Promise<number> {
    await this.ready();
    return this.store.count({ ...query, ...this.scope(caller) });
  }

  async graph(
    assistantId: string,
    caller: Principal,
    options: { xray?: boolean | number } = {},
  ): Promise<GraphDrawing> {
    return (await this.servedGraphOf(assistantId, caller)).drawing(options);
  }

  async schemas(assistantId: string, caller: Principal): Promise<GraphSchemas> {
    return (await this.servedGraphOf(assistantId, caller)).schemas();
  }

  async subgraphs(
    assistantId: string,
    caller: Principal,
    options: { namespace?: string; recurse?: boolean } = {},
  ): Promise<Record<string, GraphSchemas>> {
    return (await this.servedGraphOf(assistantId, caller)).subgraphs(options);
  }

  private scope(caller: Principal): { visibleTo: string } {
    return { visibleTo: caller.userId };
  }

  /** The caller's view of an id: stored, or a served graph's system assistant; the platform's uuid5 id aliases the graph id. */
  private async find(assistantId: string, userId: string): Promise<AssistantRow | null> {
    await this.ready();
    const id = this.aliasOf(assistantId);
    const row = await this.store.get(id, { visibleTo: userId });
    if (row) return row;
    const graph = this.graphs.get(id);
    return graph ? systemAssistantRow(graph, this.startedAt) : null;
  }

  private aliasOf(assistantId: string): string {
    const graph = this.graphs
      .list()
      .find((g) => platformSystemAssistantId(g.graphId) === assistantId);
    return graph?.graphId ?? assistantId;
  }

  private async visible(assistantId: string, caller: Principal): Promise<AssistantRow> {
    const row = await this.find(assistantId, caller.userId);
    if (!row) throw assistantNotFound(assistantId);
    return row;
  }

  /** A row the caller may change: their own, or (auth off only) a system assistant. */
  private async writable(assistantId: string, caller: Principal): Promise<AssistantRow> {
    const row = await this.visible(assistantId, caller);
    if (row.user_id === null && caller.via !== "disabled") {
      throw new FawnError(
        "forbidden",
        `Assistant "${row.assistant_id}" is a system assistant shared by every user and cannot be changed; create your own with graph_id "${row.graph_id}".`,
      );
    }
    return row;
  }

  private servedGraph(graphId: string, assistantId: string): ServedGraph {
    const graph = this.graphs.get(graphId);
    if (graph) return graph;
    const served = this.graphs
      .list()
      .map((g) => `"${g.graphId}"`)
      .join(", ");
    throw new NotFoundError(
      `Graph "${graphId}" not found (assistant "${assistantId}"); this server serves ${served}.`,
    );
  }

  private async servedGraphOf(assistantId: string, caller: Principal): Promise<ServedGraph> {
    const row = await this.visible(assistantId, caller);
    return this.servedGraph(row.graph_id, row.assistant_id);
  }
}
