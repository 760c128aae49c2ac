/** The address a "Chat with this agent" opens, and how a chat reads the agent back from it. */
import { describe, expect, it } from "vitest";
import {
  agentNameFromSearch,
  chatWithAgentPath,
  withAgentName,
} from "../../web/src/agents/agent-chat.js";

describe("a chat with a custom agent", () => {
  it("round-trips the agent's name through the new chat's address", () => {
    const path = chatWithAgentPath("code-reviewer");
    expect(path).toBe("/?agent=code-reviewer");
    expect(agentNameFromSearch(new URL(path, "http://x").search)).toBe("code-reviewer");
  });

  it("reads names as the server stores them and ignores anything that is not a name", () => {
    expect(agentNameFromSearch("?agent=Researcher")).toBe("researcher");
    expect(agentNameFromSearch("")).toBeNull();
    expect(agentNameFromSearch("?agent=")).toBeNull();
    expect(agentNameFromSearch("?agent=../etc")).toBeNull();
    expect(agentNameFromSearch(`?agent=${"a".repeat(65)}`)).toBeNull();
  });

  it("adds agent_name to a run's configurable only when there is an agent", () => {
    const config = { configurable: { model_name: "demo" } };
    expect(withAgentName(config, null)).toBe(config);
    expect(withAgentName(config, "researcher")).toEqual({
      configurable: { model_name: "demo", agent_name: "researcher" },
    });
  });
});
