import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultPublishFileOps } from "../../../src/core/atomic-file.js";
import { withBlockingIoGate } from "../../helpers/blocking-io-gate.js";
import { createTestAgent, type TestAgent } from "./harness.js";

/** 50 KB of log lines: well over the 12,000-character threshold. */
const BIG_OUTPUT = Array.from(
  { length: 1000 },
  (_, i) => `${String(i).padStart(4, "0")} ${"log ".repeat(12)}`,
).join("\n");

const bigReport = tool(async () => BIG_OUTPUT, {
  name: "big_report",
  description: "produces a long report",
  schema: z.object({}),
});

/** A tool answering with a Command, like present_files; its messages are budgeted too. */
const bigCommand = tool(
  async (_input, config) =>
    new Command({
      update: {
        messages: [
          new ToolMessage({
            content: BIG_OUTPUT,
            tool_call_id: config.toolCall?.id ?? "",
            name: "big_command",
          }),
        ],
      },
    }),
  { name: "big_command", description: "long output via a command", schema: z.object({}) },
);

const script = [
  {
    match: "command",
    turns: [{ tool_calls: [{ name: "big_command", args: {} }] }, { content: "Summarized." }],
  },
  {
    turns: [
      { tool_calls: [{ name: "big_report", args: {} }] },
      { content: "The report is long; I read the synopsis." },
    ],
  },
];

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

describe("ToolOutputBudgetMiddleware end to end", () => {
  it("a 50 KB tool output is saved under outputs/.tool-results; the model sees a synopsis and the path", async () => {
    expect(BIG_OUTPUT.length).toBeGreaterThan(50_000);
    const budgeted = await createTestAgent({ script, tools: [bigReport] });
    agent = budgeted;
    // Externalization happens on the run's path: no synchronous file IO allowed.
    const state = await withBlockingIoGate(() => budgeted.run("t-budget", "make the report"));

    const stored = state.messages.find((m) => ToolMessage.isInstance(m));
    const seen = (agent.requests.lead[1]?.messages ?? []).find((m) => ToolMessage.isInstance(m));
    for (const message of [stored, seen]) {
      const text = String(message?.content);
      expect(text).toMatch(
        /^\[Full big_report output saved to \/mnt\/user-data\/outputs\/\.tool-results\/big_report-[0-9a-f]{24}\.txt \(\d+ chars, ~\d+ tokens\)\.\]/,
      );
      expect(text).toContain(`(${BIG_OUTPUT.length} chars,`);
      expect(text.length).toBeLessThan(5000);
      expect(text).toContain(BIG_OUTPUT.slice(0, 2000));
      expect(text).toContain(BIG_OUTPUT.slice(-1000));
      expect(text).not.toContain(BIG_OUTPUT.slice(10_000, 10_200));
    }
    const virtualPath = /saved to (\S+) \(/.exec(String(stored?.content))?.[1] ?? "";
    expect(String(stored?.content)).toContain(
      `Use read_file on ${virtualPath} with start_line and end_line`,
    );
    const outputsDir = agent.paths.threadPaths({
      userId: "default",
      threadId: "t-budget",
    }).outputsDir;
    const hostFile = agent.paths.resolveVirtualPath(
      { userId: "default", threadId: "t-budget" },
      virtualPath,
    );
    expect(await readFile(hostFile, "utf8")).toBe(BIG_OUTPUT);
    expect(await readdir(join(outputsDir, ".tool-results"))).toEqual([
      virtualPath.split("/").at(-1),
    ]);
    expect(agent.evidence.entries.find((e) => e.tag === "tool_output_budget")).toMatchObject({
      hook: "wrapToolCall",
      action: "externalized",
      changes: { tool: "big_report", original_chars: BIG_OUTPUT.length, path: virtualPath },
    });
    expect(state.messages.at(-1)?.content).toBe("The report is long; I read the synopsis.");
  });

  it("ToolMessages inside a tool's Command are budgeted too", async () => {
    agent = await createTestAgent({ script, tools: [bigCommand] });
    const state = await agent.run("t-command", "run the command");
    const stored = state.messages.find((m) => ToolMessage.isInstance(m));
    expect(String(stored?.content)).toMatch(/^\[Full big_command output saved to/);
  });

  it("when the file cannot be written, the output is truncated to the fallback budget instead", async () => {
    agent = await createTestAgent({
      script,
      tools: [bigReport],
      middlewareOptions: {
        externalizeSeams: {
          ops: {
            ...defaultPublishFileOps,
            open: async () => {
              throw Object.assign(new Error("No space left on device"), { code: "ENOSPC" });
            },
          },
        },
      },
    });
    const state = await agent.run("t-fallback", "make the report");
    const stored = state.messages.find((m) => ToolMessage.isInstance(m));
    const text = String(stored?.content);
    expect(text.length).toBeLessThanOrEqual(30_000);
    expect(text).toMatch(
      /\[\.\.\. \d+ chars omitted from big_report output\. Persistent storage unavailable\./,
    );
    expect(text.startsWith(BIG_OUTPUT.slice(0, 7000))).toBe(true);
    const outputsDir = agent.paths.threadPaths({
      userId: "default",
      threadId: "t-fallback",
    }).outputsDir;
    expect(await readdir(join(outputsDir, ".tool-results"))).toEqual([]);
    expect(agent.evidence.actions("tool_output_budget")).toEqual(["truncated"]);
  });

  it("history over the budget is truncated in the request only", async () => {
    agent = await createTestAgent({
      script: [{ turns: [{ content: "ok" }] }],
      sections: { tool_output: { fallback_max_chars: 1000 }, title: { enabled: false } },
    });
    // An old oversized result (e.g. written before the budget existed) sits in the thread.
    await agent.graph.updateState(
      { configurable: { thread_id: "t-history" } },
      {
        messages: [
          { role: "user", content: "earlier" },
          { role: "assistant", content: "", tool_calls: [{ id: "old", name: "bash", args: {} }] },
          new ToolMessage({ content: "z".repeat(5000), tool_call_id: "old", name: "bash" }),
          { role: "assistant", content: "done earlier" },
        ],
      },
    );
    const state = await agent.run("t-history", "and now?");
    const sent = (agent.requests.lead[0]?.messages ?? []).find((m) => ToolMessage.isInstance(m));
    expect(String(sent?.content).length).toBeLessThanOrEqual(1000);
    const kept = state.messages.find((m) => ToolMessage.isInstance(m));
    expect(String(kept?.content)).toHaveLength(5000);
    expect(agent.evidence.actions("tool_output_budget")).toEqual(["truncated_history"]);
  });
});
