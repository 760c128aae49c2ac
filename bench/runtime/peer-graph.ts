/** The module `@langchain/langgraph-api` loads (`peer-graph.ts:graph`); it attaches its checkpointer. */
import { buildBenchGraph } from "./bench-graph.js";

export const graph = buildBenchGraph();
