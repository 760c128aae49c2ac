import type { GraphStreamMode, RunStreamMode } from "../../ports/agent.js";

/** What the worker asks LangGraph for, and what it derives and publishes, for a run's modes. */
export interface StreamPlan {
  /** LangGraph modes the graph streams (always a list, so chunks come as `[mode, data]`). */
  graphModes: GraphStreamMode[];
  /** LangGraph modes whose chunks are published as they are. */
  published: ReadonlySet<string>;
  /** `events`: LangChain stream events, from the stream-events callback handler. */
  events: boolean;
  /** The API's `messages` mode: partial messages from that handler, complete ones from values. */
  partialMessages: boolean;
}

export function planStream(requested: readonly RunStreamMode[], delegates: boolean): StreamPlan {
  const published = new Set<GraphStreamMode>();
  for (const mode of requested) {
    if (mode !== "events" && mode !== "messages-partial") published.add(mode);
  }
  const partialMessages = requested.includes("messages-partial");
  const events = requested.includes("events");
  const graphModes = new Set<GraphStreamMode>(published);
  // `updates` carries `__interrupt__`, how the run learns it stopped at a breakpoint.
  graphModes.add("updates");
  if (partialMessages) graphModes.add("values");
  // Sub-agent progress rides `custom`: a delegating run reads it to record `subagent.*` events.
  if (delegates) graphModes.add("custom");
  return { graphModes: [...graphModes], published, events, partialMessages };
}
