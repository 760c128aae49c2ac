/**
 * Starting a chat with a custom agent: the Agents page opens `/?agent=<name>`; the chat reads the
 * name once when it mounts and sends it with every run as `configurable.agent_name`, which the
 * server honours (docs/API.md "Custom agents", "In runs").
 */

const AGENT_PARAM = "agent";
const AGENT_NAME = /^[A-Za-z0-9-]{1,64}$/;

/** The address of a new chat with `agentName`. */
export function chatWithAgentPath(agentName: string): string {
  return `/?${AGENT_PARAM}=${encodeURIComponent(agentName)}`;
}

/** The agent named by a new chat's address (`?agent=<name>`), or null (also for a bad name). */
export function agentNameFromSearch(search: string): string | null {
  const name = new URLSearchParams(search).get(AGENT_PARAM);
  return name && AGENT_NAME.test(name) ? name.toLowerCase() : null;
}

/** A run's config with the agent added to its `configurable` (unchanged without an agent). */
export function withAgentName<T extends { configurable: Record<string, unknown> }>(
  config: T,
  agentName: string | null,
): T {
  if (!agentName) return config;
  return { ...config, configurable: { ...config.configurable, agent_name: agentName } };
}
