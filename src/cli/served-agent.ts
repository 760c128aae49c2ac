import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { AgentDescription } from "../gateway/assistants/assistant-catalog.js";
import {
  buildEchoGraph,
  ECHO_AGENT_DESCRIPTION,
  streamingAgentFromGraph,
} from "../gateway/echo-agent.js";
import type { AgentFactory, StreamingAgent } from "../runtime/worker/run-context.js";

export interface ServedAgent {
  description: AgentDescription;
  /** The runtime's agent factory, given the checkpointer createFawn chose. */
  factory(checkpointer: BaseCheckpointSaver): AgentFactory;
}

/**
 * The graph `fawn serve` runs. Until the lead agent (`src/agent/`) is wired in here, the built-in
 * echo graph, announced as such in `/api/info`.
 */
export function servedAgent(): ServedAgent {
  let agent: StreamingAgent | undefined;
  return {
    description: ECHO_AGENT_DESCRIPTION,
    factory: (checkpointer) => () => {
      agent ??= streamingAgentFromGraph(buildEchoGraph(checkpointer));
      return agent;
    },
  };
}
