import { describe, expect, it } from "vitest";
import { buildSystemPrompt, formatPromptDate } from "./build-system-prompt.js";

describe("lead system prompt", () => {
  const date = new Date("2026-05-04T12:00:00Z");

  it("renders the sections in order, with the date last", () => {
    const prompt = buildSystemPrompt({
      date,
      timeZone: "UTC",
      tools: [
        { name: "write_file", description: "Write a text file. Parent folders are created." },
        { name: "ask_clarification", description: "Ask the user a question and wait." },
      ],
    });
    const order = [
      "You are Fawn",
      "<working_directories>",
      "<working_rules>",
      "<clarification_system>",
      "<skill_system>",
      "<tools>",
      "<current_date>",
    ];
    const positions = order.map((marker) => prompt.indexOf(marker));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(prompt).toContain("- write_file: Write a text file.\n");
    expect(prompt).toContain("(no skills are installed yet)");
    expect(prompt.endsWith("<current_date>2026-05-04, Monday</current_date>")).toBe(true);
    expect(prompt).not.toContain("<subagent_system>");
  });

  it("lists skills escaped, states sub-agent limits, and leaves out clarification without the tool", () => {
    const prompt = buildSystemPrompt({
      date,
      agentName: "Doe",
      skills: [
        {
          name: "deep-research",
          description: "Research <carefully>",
          location: "/mnt/skills/public/deep-research/SKILL.md",
        },
      ],
      subagents: { maxConcurrent: 3, maxTotal: 6 },
    });
    expect(prompt.startsWith("You are Doe,")).toBe(true);
    expect(prompt).toContain("<description>Research &lt;carefully&gt;</description>");
    expect(prompt).toContain("at most 3 task calls per answer and 6 per run");
    expect(prompt).not.toContain("<clarification_system>");
    expect(prompt).not.toContain("<tools>");
  });

  it("only the date differs from one day to the next (the cacheable prefix stays)", () => {
    const today = buildSystemPrompt({ date, timeZone: "UTC" });
    const tomorrow = buildSystemPrompt({ date: new Date("2026-05-05T12:00:00Z"), timeZone: "UTC" });
    const cut = today.indexOf("<current_date>");
    expect(tomorrow.slice(0, cut)).toBe(today.slice(0, cut));
    expect(formatPromptDate(date, "Asia/Tokyo")).toBe("2026-05-04, Monday");
  });
});
