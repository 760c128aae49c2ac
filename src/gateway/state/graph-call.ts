import { BaseLangGraphError } from "@langchain/langgraph";
import { isFawnError, NotFoundError, ValidationError } from "../../core/errors.js";

/** LangGraph's message for a checkpoint namespace no subgraph of the graph has. */
const UNKNOWN_SUBGRAPH = /^Subgraph .* not found/;

/**
 * A call into a served graph's state API, its errors made the caller's: an update LangGraph
 * refuses (an unknown node, an ambiguous or invalid write) is a 400 and an unknown subgraph
 * namespace a 404; anything else (the store failing) stays what it was.
 */
export async function graphCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isFawnError(error) || !(error instanceof Error)) throw error;
    if (UNKNOWN_SUBGRAPH.test(error.message)) {
      throw new NotFoundError(`${error.message}; name a namespace of this thread's graph.`, {
        cause: error,
      });
    }
    if (error instanceof BaseLangGraphError || error.name === "InvalidUpdateError") {
      throw new ValidationError(`The graph refused the state update: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}
