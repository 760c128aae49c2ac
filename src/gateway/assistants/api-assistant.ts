import type { AssistantRow, AssistantVersionRow } from "../../ports/assistant-store.js";

/** LangGraph's `Assistant` object (the owner stays server-side). */
export interface ApiAssistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  version: number;
  created_at: string;
  updated_at: string;
}

/** LangGraph's `AssistantVersion`: one immutable version row. */
export type ApiAssistantVersion = Omit<ApiAssistant, "updated_at">;

export const ASSISTANT_SELECT_FIELDS = [
  "assistant_id",
  "graph_id",
  "name",
  "description",
  "config",
  "context",
  "created_at",
  "updated_at",
  "metadata",
  "version",
] as const satisfies readonly (keyof ApiAssistant)[];
export type AssistantSelectField = (typeof ASSISTANT_SELECT_FIELDS)[number];

export function toApiAssistant(row: AssistantRow): ApiAssistant {
  const { user_id: _owner, ...visible } = row;
  return visible;
}

export function toApiAssistantVersion(row: AssistantVersionRow): ApiAssistantVersion {
  return { ...row };
}

/** Only the selected fields (`select` of a search), in the object's own order. */
export function selectFields(
  assistant: ApiAssistant,
  select: readonly AssistantSelectField[] | null | undefined,
): Partial<ApiAssistant> {
  if (!select || select.length === 0) return assistant;
  return Object.fromEntries(
    Object.entries(assistant).filter(([key]) => (select as readonly string[]).includes(key)),
  );
}
