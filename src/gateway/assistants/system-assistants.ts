import { createHash } from "node:crypto";
import type { AssistantRow, NewAssistant } from "../../ports/assistant-store.js";
import type { ServedGraph } from "../../ports/graph-catalog.js";

/**
 * The namespace the LangGraph platform derives a served graph's system assistant id from:
 * clients holding that `uuid5(graph_id)` id reach the same assistant as the graph id.
 */
const GRAPH_NAMESPACE = "6ba7b821-9dad-11d1-80b4-00c04fd430c8";

/** RFC 4122 version 5 (SHA-1, name-based) UUID. */
export function uuid5(name: string, namespace: string): string {
  const bytes = createHash("sha1")
    .update(Buffer.from(namespace.replaceAll("-", ""), "hex"))
    .update(name, "utf8")
    .digest()
    .subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The platform's id for a graph's system assistant; Fawn accepts it as an alias of the graph id. */
export function platformSystemAssistantId(graphId: string): string {
  return uuid5(graphId, GRAPH_NAMESPACE);
}

/** The assistant a served graph brings: its id is the graph id, visible to every caller. */
export function systemAssistantOf(graph: ServedGraph, createdAt: string): NewAssistant {
  return {
    assistant_id: graph.graphId,
    graph_id: graph.graphId,
    name: graph.name,
    description: graph.description,
    config: graph.defaults?.config ?? {},
    context: graph.defaults?.context ?? {},
    metadata: { created_by: "system", agent: graph.kind },
    user_id: null,
    created_at: createdAt,
  };
}

/** A system assistant as a row, for a served graph whose stored assistant was deleted. */
export function systemAssistantRow(graph: ServedGraph, createdAt: string): AssistantRow {
  const assistant = systemAssistantOf(graph, createdAt);
  return {
    assistant_id: assistant.assistant_id,
    graph_id: assistant.graph_id,
    name: assistant.name,
    description: assistant.description ?? null,
    config: assistant.config ?? {},
    context: assistant.context ?? {},
    metadata: assistant.metadata ?? {},
    version: 1,
    user_id: null,
    created_at: createdAt,
    updated_at: createdAt,
  };
}
