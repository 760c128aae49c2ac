/** The module `@langchain/langgraph-api` loads (`peer-graph.ts:graph`); it attaches its checkpointer. */
import { buildAgentLoadGraph, MOCK_URL_ENV } from "./agent-graph.js";

const mockUrl = process.env[MOCK_URL_ENV];
if (!mockUrl) throw new Error(`${MOCK_URL_ENV} is not set`);

export const graph = buildAgentLoadGraph(mockUrl);
