/** One kind of sub-agent the `task` tool can start: what it is for, what it may use, its limits. */
export interface SubagentType {
  name: string;
  /** Shown to the lead agent in the `task` tool's description: when to delegate to it. */
  description: string;
  /** The sub-agent's system message. */
  systemPrompt: string;
  /** Allowed tool names; null = every tool of the lead agent. */
  tools: readonly string[] | null;
  /** Skills it is told about (of the run's enabled ones); null = all of them, [] = none. */
  skills: readonly string[] | null;
  /** Tool names removed after the allow list. */
  disallowedTools: readonly string[];
  /** A configured model name, or `inherit` (the lead agent's model for the run). */
  model: string;
  /** Graph steps before the sub-agent is stopped (a partial answer survives as `turn_capped`). */
  maxTurns: number;
  /** Wall-clock limit in seconds. */
  timeoutSeconds: number;
}

export const INHERIT_MODEL = "inherit";
