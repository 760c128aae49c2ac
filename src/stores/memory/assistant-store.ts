import {
  type AssistantFilter,
  type AssistantPatch,
  type AssistantRow,
  type AssistantScope,
  type AssistantSearch,
  type AssistantStore,
  type AssistantVersionQuery,
  type AssistantVersionRow,
  compareAssistants,
  isVisible,
  jsonContains,
  matchesAssistantFilter,
  type NewAssistant,
  patchedContent,
  type SetLatestResult,
} from "../../ports/assistant-store.js";

const DEFAULT_LIMIT = 10;

/** Assistants and their versions in process memory (tests, `database.url: memory:`). */
export class MemoryAssistantStore implements AssistantStore {
  private readonly assistants = new Map<string, AssistantRow>();
  private readonly history = new Map<string, AssistantVersionRow[]>();

  // Every method is synchronous inside, so each one is atomic on the event loop.
  async create(assistant: NewAssistant): Promise<{ assistant: AssistantRow; created: boolean }> {
    const existing = this.assistants.get(assistant.assistant_id);
    if (existing) return { assistant: structuredClone(existing), created: false };
    const content = {
      graph_id: assistant.graph_id,
      name: assistant.name,
      description: assistant.description ?? null,
      config: structuredClone(assistant.config ?? {}),
      context: structuredClone(assistant.context ?? {}),
      metadata: structuredClone(assistant.metadata ?? {}),
    };
    const row: AssistantRow = {
      ...content,
      assistant_id: assistant.assistant_id,
      version: 1,
      user_id: assistant.user_id ?? null,
      created_at: assistant.created_at,
      updated_at: assistant.created_at,
    };
    this.assistants.set(row.assistant_id, row);
    this.history.set(row.assistant_id, [
      {
        ...structuredClone(content),
        assistant_id: row.assistant_id,
        version: 1,
        created_at: row.created_at,
      },
    ]);
    return { assistant: structuredClone(row), created: true };
  }

  async get(assistantId: string, scope: AssistantScope = {}): Promise<AssistantRow | null> {
    const row = this.visible(assistantId, scope);
    return row ? structuredClone(row) : null;
  }

  async update(
    assistantId: string,
    patch: AssistantPatch,
    now: string,
    scope: AssistantScope = {},
  ): Promise<AssistantRow | null> {
    const row = this.visible(assistantId, scope);
    const versions = this.history.get(assistantId);
    if (!row || !versions) return null;
    const content = structuredClone(patchedContent(row, patch));
    const version = Math.max(...versions.map((v) => v.version)) + 1;
    versions.push({
      ...structuredClone(content),
      assistant_id: assistantId,
      version,
      created_at: now,
    });
    Object.assign(row, content, { version, updated_at: now });
    return structuredClone(row);
  }

  async delete(assistantId: string, scope: AssistantScope = {}): Promise<boolean> {
    if (!this.visible(assistantId, scope)) return false;
    this.assistants.delete(assistantId);
    this.history.delete(assistantId);
    return true;
  }

  async search(query: AssistantSearch): Promise<AssistantRow[]> {
    const offset = Math.max(0, query.offset ?? 0);
    const limit = query.limit ?? DEFAULT_LIMIT;
    return this.filtered(query)
      .sort(compareAssistants(query.sortBy, query.sortOrder))
      .slice(offset, offset + Math.max(0, limit))
      .map((row) => structuredClone(row));
  }

  async count(query: AssistantFilter): Promise<number> {
    return this.filtered(query).length;
  }

  async versions(
    assistantId: string,
    query: AssistantVersionQuery = {},
  ): Promise<AssistantVersionRow[]> {
    if (!this.visible(assistantId, query)) return [];
    const offset = Math.max(0, query.offset ?? 0);
    const limit = query.limit ?? DEFAULT_LIMIT;
    return (this.history.get(assistantId) ?? [])
      .filter((v) => query.metadata === undefined || jsonContains(v.metadata, query.metadata))
      .sort((a, b) => b.version - a.version)
      .slice(offset, offset + Math.max(0, limit))
      .map((v) => structuredClone(v));
  }

  async setLatest(
    assistantId: string,
    version: number,
    now: string,
    scope: AssistantScope = {},
  ): Promise<SetLatestResult> {
    const row = this.visible(assistantId, scope);
    if (!row) return { status: "assistant_not_found" };
    const found = this.history.get(assistantId)?.find((v) => v.version === version);
    if (!found) return { status: "version_not_found" };
    const { assistant_id: _id, created_at: _at, ...content } = structuredClone(found);
    Object.assign(row, content, { updated_at: now });
    return { status: "updated", assistant: structuredClone(row) };
  }

  async close(): Promise<void> {}

  private visible(assistantId: string, scope: AssistantScope): AssistantRow | null {
    const row = this.assistants.get(assistantId);
    return row && isVisible(row.user_id, scope) ? row : null;
  }

  private filtered(query: AssistantFilter): AssistantRow[] {
    return [...this.assistants.values()].filter((row) => matchesAssistantFilter(row, query));
  }
}
