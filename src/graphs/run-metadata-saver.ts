import type { BaseCheckpointSaver, CheckpointMetadata } from "@langchain/langgraph-checkpoint";

/**
 * The run's saver, writing the run's config `metadata` into every checkpoint's metadata (the
 * checkpoint's own keys win), as LangGraph's servers do: history can then be filtered by what a
 * run was tagged with. Everything but `put` is the saver itself.
 */
export function withRunMetadata(saver: BaseCheckpointSaver): BaseCheckpointSaver {
  return new Proxy(saver, {
    get(target, property) {
      if (property === "put") {
        const put: BaseCheckpointSaver["put"] = (config, checkpoint, metadata, versions) =>
          target.put(
            config,
            checkpoint,
            { ...runMetadataOf(config.metadata), ...metadata } as CheckpointMetadata,
            versions,
          );
        return put;
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The run's own metadata keys: plain JSON values, never LangGraph's or Fawn's internals. */
function runMetadataOf(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (key.startsWith("__") || key.startsWith("langgraph_")) continue;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) out[key] = value;
  }
  return out;
}
