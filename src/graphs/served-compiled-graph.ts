import type {
  GraphDrawing,
  GraphSchemas,
  ServedGraph,
  SubgraphSchemas,
} from "../ports/graph-catalog.js";
import { compiledGraphState } from "./compiled-graph-state.js";
import { type DerivedSchemas, deriveSchemas } from "./graph-schemas.js";
import type { ResolvedGraph } from "./resolve-graph.js";

/** A graph's assistant defaults (`LANGGRAPH_CONFIG`): its config and context. */
export type GraphDefaults = NonNullable<ServedGraph["defaults"]>;

/**
 * A loaded graph as the API describes it. A factory graph is built with its assistant's defaults
 * for each description, as LangGraph's server does, so what is drawn is what a run would get.
 */
export function servedCompiledGraph(
  resolved: ResolvedGraph,
  defaults?: GraphDefaults,
): ServedGraph {
  const { graphId } = resolved.spec;
  const config = {
    ...defaults?.config,
    ...(defaults?.context ? { context: defaults.context } : {}),
  };
  const compiled = () => resolved.compiled(config);
  return {
    graphId,
    kind: graphId,
    name: graphId,
    description: resolved.spec.description ?? "",
    ...(defaults ? { defaults } : {}),
    async drawing(options = {}) {
      const graph = await compiled();
      const drawable = await graph.getGraphAsync({
        ...config,
        ...(options.xray === undefined ? {} : { xray: options.xray }),
      });
      return drawable.toJSON() as GraphDrawing;
    },
    async schemas() {
      return apiSchemas(graphId, deriveSchemas(await compiled()));
    },
    async subgraphs(options = {}) {
      const graph = await compiled();
      const found: Record<string, SubgraphSchemas> = {};
      for await (const [namespace, subgraph] of graph.getSubgraphsAsync(
        options.namespace,
        options.recurse ?? false,
      )) {
        const derived = deriveSchemas(subgraph);
        found[namespace] = { ...derived, ...apiSchemas(graphId, derived) };
      }
      return found;
    },
    async stateAccess({ config: threadConfig, ...savers }) {
      const graph = threadConfig ? await resolved.compiled(threadConfig) : await compiled();
      return compiledGraphState(graph, savers);
    },
  };
}

function apiSchemas(graphId: string, derived: DerivedSchemas): GraphSchemas {
  return {
    graph_id: graphId,
    input_schema: derived.input,
    output_schema: derived.output,
    state_schema: derived.state,
    config_schema: derived.config,
    context_schema: derived.config,
  };
}
