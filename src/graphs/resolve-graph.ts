import { stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { type CompiledGraphLike, isCompiledGraph } from "./compiled-graph.js";
import { type GraphSpec, graphSpecError } from "./graph-spec.js";

/*
 * A graph module's export may be a compiled graph, a `StateGraph` (compiled here), a promise of
 * either, or a function of the run's config returning either (sync or async). Graphs are
 * recognised by shape, not `instanceof`: a project's graphs may bring their own copy of
 * `@langchain/langgraph`.
 */

/** The run's config, as a graph factory is given it. */
export type GraphFactoryConfig = Record<string, unknown>;

/** A loaded graph: the compiled graph for a config (the same one each time unless a factory). */
export interface ResolvedGraph {
  spec: GraphSpec;
  /** True when the export is a function called per run. */
  isFactory: boolean;
  compiled(config: GraphFactoryConfig): Promise<CompiledGraphLike>;
}

/** Imports the module and checks its export; an error names the file, the export and the problem. */
export async function resolveGraph(spec: GraphSpec): Promise<ResolvedGraph> {
  try {
    await stat(spec.file);
  } catch (error) {
    throw graphSpecError(spec, "the file does not exist or cannot be read.", error);
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(spec.file).href)) as Record<string, unknown>;
  } catch (error) {
    throw graphSpecError(spec, `importing the module failed: ${importProblem(spec, error)}`, error);
  }
  if (!(spec.exportName in module) || module[spec.exportName] === undefined) {
    const names = Object.keys(module).filter((name) => name !== "__esModule");
    throw graphSpecError(
      spec,
      `the module has no export "${spec.exportName}" (it exports ${names.map((n) => `"${n}"`).join(", ") || "nothing"}).`,
    );
  }
  const exported = module[spec.exportName];
  if (typeof exported === "function" && !isGraphBuilder(exported)) {
    const factory = exported as (config: GraphFactoryConfig) => unknown;
    return {
      spec,
      isFactory: true,
      compiled: async (config) => {
        let made: unknown;
        try {
          made = await factory(config);
        } catch (error) {
          throw graphSpecError(spec, `the graph factory threw: ${messageOf(error)}`, error);
        }
        return compiledOf(spec, made, "the graph factory returned");
      },
    };
  }
  const compiled = compiledOf(spec, await exported, "the export is");
  return { spec, isFactory: false, compiled: async () => compiled };
}

function compiledOf(spec: GraphSpec, value: unknown, what: string): CompiledGraphLike {
  const graph = isGraphBuilder(value) ? compileBuilder(spec, value) : value;
  if (!isCompiledGraph(graph)) {
    throw graphSpecError(
      spec,
      `${what} ${describeValue(value)}, not a compiled graph, a StateGraph or a function returning one.`,
    );
  }
  // LangChain's `createAgent` wraps its compiled graph; the inner one is what streams and draws.
  const inner: unknown = Reflect.get(graph, "graph");
  return isCompiledGraph(inner) ? inner : graph;
}

function compileBuilder(spec: GraphSpec, builder: { compile(): unknown }): unknown {
  try {
    return builder.compile();
  } catch (error) {
    throw graphSpecError(spec, `compiling the StateGraph failed: ${messageOf(error)}`, error);
  }
}

function isGraphBuilder(value: unknown): value is { compile(): unknown } {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof Reflect.get(value, "compile") === "function" &&
    typeof Reflect.get(value, "addNode") === "function"
  );
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") {
    const name = value.constructor?.name;
    return name && name !== "Object" ? `an instance of ${name}` : "a plain object";
  }
  return `a ${typeof value}`;
}

function importProblem(spec: GraphSpec, error: unknown): string {
  const code = error instanceof Error ? Reflect.get(error, "code") : undefined;
  if (code === "ERR_UNKNOWN_FILE_EXTENSION" && /\.(c|m)?tsx?$/.test(spec.file)) {
    return "Node cannot load TypeScript by itself; run Fawn through `fawn` (bin/fawn.js) or `npm start`, which load it with tsx.";
  }
  return messageOf(error);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
