import type { AgentRuns } from "./api/agent-runs.js";

/**
 * Who a run handle is handed to: a signed-in caller of a plugin route (`session`, or `disabled`
 * auth), a plugin tool inside a run (`run`: the run's own user), or a plugin service acting for a
 * team owner it stored (`service`). API-token callers get no handle.
 */
export type AgentRunsCaller = "session" | "disabled" | "token" | "run" | "service";

/** How the host gives plugins run handles; the gateway implements it over the real runtime. */
export interface AgentRunsProvider {
  /** A handle acting for `userId`, unbound to any plugin; null when this caller gets none. */
  bind(principal: { userId: string; via: AgentRunsCaller }): AgentRuns | null;
}
