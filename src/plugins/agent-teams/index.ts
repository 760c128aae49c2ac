import type { FawnPlugin, PluginContributions } from "../../extensions/api/index.js";
import { teamActions } from "./actions.js";
import { parseConfig } from "./config.js";
import { NAMESPACE } from "./model.js";
import { teamRoutes } from "./routes.js";
import { Teams } from "./teams.js";
import { teamTools } from "./tools.js";

/*
 * Agent teams: named groups of agents, each member with its own conversation, that send each
 * other requests and hand over files. See docs/plugins/agent-teams.md.
 */

export {
  pollSignal,
  TimeoutError,
  transfer,
  WorkerDeadline,
  withWorkerDeadline,
  workerDeadline,
} from "./deadline.js";
export { ServiceLease } from "./lease.js";
export { NAMESPACE } from "./model.js";
export { teamsSettings } from "./settings.js";
export { TeamsStore } from "./store.js";
export { Teams } from "./teams.js";

/**
 * The plugin's contributions for one config. The `Teams` service is the one entry of
 * `services`: the host starts and ticks it, tests reach it there (`teamsOf`).
 */
export function installAgentTeams(config: Readonly<Record<string, unknown>>): PluginContributions {
  const parsed = parseConfig(config);
  const teams = new Teams(parsed);
  return {
    actions: teamActions(teams),
    tools: teamTools(teams),
    routes: teamRoutes(teams),
    services: parsed.enabled ? [teams] : [],
  };
}

/** The `Teams` instance behind contributions made by this plugin, or null. */
export function teamsOf(contributions: PluginContributions): Teams | null {
  const service = contributions.services?.find((s) => s instanceof Teams);
  return service instanceof Teams ? service : null;
}

export const agentTeamsPlugin: FawnPlugin = {
  namespace: NAMESPACE,
  version: "1.0.0",
  apiVersion: "1.0",
  title: "Agent teams",
  description: "Teams of agents that send each other requests and hand over files.",
  install: (config) => installAgentTeams(config),
};

export default agentTeamsPlugin;
