import { chatWithAgentPath } from "./agent-chat.js";

/**
 * Opens a new chat with the agent: the workspace routes on `popstate`, so pushing the address
 * and announcing it mounts a fresh chat there.
 */
export function openChatWithAgent(agentName: string): void {
  window.history.pushState(null, "", chatWithAgentPath(agentName));
  window.dispatchEvent(new PopStateEvent("popstate"));
}
