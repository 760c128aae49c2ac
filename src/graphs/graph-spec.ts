import { isAbsolute, resolve } from "node:path";
import { ConfigError } from "../core/errors.js";

/** Where a served graph comes from: `./path/file.ts:exportName`, relative to the file naming it. */
export interface GraphSpec {
  graphId: string;
  /** Absolute path of the module. */
  file: string;
  /** The export holding the graph (`default` when the spec names none). */
  exportName: string;
  /** Shown in errors: the entry as written and where (`langgraph.json`, `config.yaml graphs:`). */
  origin: string;
  description?: string;
}

const GRAPH_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Parses one `graphs` entry; `baseDir` is the directory of the file that names it. */
export function parseGraphSpec(
  graphId: string,
  entry: string,
  options: { baseDir: string; origin: string; description?: string },
): GraphSpec {
  if (!GRAPH_ID.test(graphId)) {
    throw new ConfigError(
      `${options.origin}: graph id "${graphId}" is not valid; use letters, digits, "_", "-" or "." (at most 128).`,
    );
  }
  // The last `:` separates the export, so a Windows drive letter (`C:\…`) stays in the path.
  const colon = entry.lastIndexOf(":");
  const hasExport = colon >= 0 && !(colon === 1 && isAbsolute(entry.slice(0, 3)));
  const path = hasExport ? entry.slice(0, colon) : entry;
  const exportName = hasExport ? entry.slice(colon + 1) : "default";
  if (path.length === 0 || exportName.length === 0) {
    throw new ConfigError(
      `${options.origin}: graph "${graphId}" is "${entry}"; write it as ./path/to/file.ts:exportName.`,
    );
  }
  return {
    graphId,
    file: resolve(options.baseDir, path),
    exportName,
    origin: options.origin,
    ...(options.description ? { description: options.description } : {}),
  };
}

/** An error about one graph entry, naming its file and export and what was wrong. */
export function graphSpecError(spec: GraphSpec, problem: string, cause?: unknown): ConfigError {
  return new ConfigError(
    `${spec.origin}: graph "${spec.graphId}" (${spec.file}, export "${spec.exportName}"): ${problem}`,
    {
      ...(cause === undefined ? {} : { cause }),
      details: { graph_id: spec.graphId, file: spec.file, export: spec.exportName },
    },
  );
}
