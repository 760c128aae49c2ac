import { useState } from "react";
import { agentNameFromSearch } from "./agent-chat.js";

/**
 * The custom agent a chat was opened for (`/?agent=<name>`), read once when the chat mounts: the
 * address becomes `/chats/<id>` after the first send, and the agent must stay for the next ones.
 */
export function useChatAgent(): string | null {
  const [agentName] = useState(() => agentNameFromSearch(window.location.search));
  return agentName;
}
