import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { AssistantPatch } from "../../ports/assistant-store.js";
import type { NewApiAssistant } from "./assistant-catalog.js";
import type { assistantCreateBody, assistantPatchBody } from "./assistant-schemas.js";

/** A create body with the platform's defaults: a fresh UUID, "Untitled", `if_exists: raise`. */
export function newAssistantOf(body: z.output<typeof assistantCreateBody>): NewApiAssistant {
  return {
    assistant_id: body.assistant_id ?? randomUUID(),
    graph_id: body.graph_id,
    name: body.name ?? "Untitled",
    description: body.description ?? null,
    config: body.config ?? {},
    context: body.context ?? {},
    metadata: body.metadata ?? {},
    if_exists: body.if_exists ?? "raise",
  };
}

/** A PATCH body as a store patch: absent and null fields keep the current value. */
export function patchOf(body: z.output<typeof assistantPatchBody>): AssistantPatch {
  return {
    ...(body.graph_id == null ? {} : { graph_id: body.graph_id }),
    ...(body.config == null ? {} : { config: body.config }),
    ...(body.context == null ? {} : { context: body.context }),
    ...(body.metadata == null ? {} : { metadata: body.metadata }),
    ...(body.name == null ? {} : { name: body.name }),
    ...(body.description == null ? {} : { description: body.description }),
  };
}
