import { describe, expect, it } from "vitest";
import { ConfigError } from "../../core/errors.js";
import { createSubagentRegistry } from "./subagent-registry.js";

describe("createSubagentRegistry", () => {
  it("offers the built-ins with their own limits when nothing is configured", () => {
    const registry = createSubagentRegistry(undefined, { bashAllowed: true });
    expect(registry.available).toEqual(["general-purpose", "bash"]);
    expect(registry.resolve("general-purpose")).toMatchObject({
      tools: null,
      disallowedTools: ["task", "ask_clarification", "present_files"],
      model: "inherit",
      maxTurns: 150,
      timeoutSeconds: 1800,
    });
    expect(registry.resolve("bash")).toMatchObject({
      tools: ["bash", "ls", "read_file", "write_file", "str_replace"],
      maxTurns: 60,
    });
    expect(registry.resolve("nope")).toBeNull();
  });

  it("hides bash where commands may not run, but still knows the type", () => {
    const registry = createSubagentRegistry({}, { bashAllowed: false });
    expect(registry.available).toEqual(["general-purpose"]);
    expect(registry.bashAllowed).toBe(false);
    expect(registry.resolve("bash")?.name).toBe("bash");
  });

  it("layers per-agent overrides over globals, and globals over built-ins only", () => {
    const registry = createSubagentRegistry(
      {
        timeout_seconds: 600,
        max_turns: 40,
        agents: {
          bash: { timeout_seconds: 30, model: "fast" },
          reviewer: { max_turns: 9 },
        },
        custom_agents: {
          reviewer: {
            description: "Reviews a diff",
            system_prompt: "You review.",
            tools: ["read_file"],
            timeout_seconds: 120,
          },
          "general-purpose": { description: "shadow", system_prompt: "ignored" },
        },
      },
      { bashAllowed: true },
    );
    expect(registry.available).toEqual(["general-purpose", "bash", "reviewer"]);
    expect(registry.resolve("general-purpose")).toMatchObject({
      timeoutSeconds: 600,
      maxTurns: 40,
      systemPrompt: expect.stringContaining("sub-agent"),
    });
    expect(registry.resolve("bash")).toMatchObject({
      timeoutSeconds: 30,
      maxTurns: 40,
      model: "fast",
    });
    // A custom type keeps its own timeout (the global is for built-ins); its override wins.
    expect(registry.resolve("reviewer")).toMatchObject({
      tools: ["read_file"],
      disallowedTools: ["task", "ask_clarification", "present_files"],
      model: "inherit",
      maxTurns: 9,
      timeoutSeconds: 120,
    });
  });

  it("refuses a malformed section at startup, naming the key", () => {
    expect(() =>
      createSubagentRegistry(
        { custom_agents: { x: { description: "no prompt" } } },
        {
          bashAllowed: true,
        },
      ),
    ).toThrow(ConfigError);
    expect(() => createSubagentRegistry({ timeout_seconds: 0 }, { bashAllowed: true })).toThrow(
      /subagents\.timeout_seconds/,
    );
  });
});
