/**
 * `memory.mode: tool`: the lead agent keeps its memory itself with
 * `memory_search/add/update/delete`, acting on the run's user; no background update is queued
 * after the run; the next run's `<memory>` block carries the summaries only (facts are looked up).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import { emptyMemory, type MemoryFact } from "../../src/agent/memory/memory-document.js";
import { MemoryStore } from "../../src/agent/memory/memory-store.js";
import { createMemoryTools, rankFacts } from "../../src/agent/memory/memory-tools.js";
import { memoryQueueFor } from "../../src/agent/memory/memory-update-queue.js";
import { contentText } from "../../src/agent/middlewares/conversation.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { MemoryDocumentStore } from "../../src/stores/memory/document-store.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { LeadModelCalls } from "../helpers/lead-model-calls.js";

const logger = createLogger({ level: "silent" });

let home = "";
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-memory-tools-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown>) => ({ name, args });

describe("memory tools in a lead-agent run (memory.mode: tool)", () => {
  it("adds, finds, corrects and forgets facts of the run's user; nothing is queued after the run", async () => {
    const script = [
      {
        match: "^remember",
        turns: [
          {
            tool_calls: [
              call("memory_add", { content: "Prefers   tabs over spaces", category: "preference" }),
            ],
          },
          { tool_calls: [call("memory_add", { content: "prefers tabs over spaces" })] },
          { tool_calls: [call("memory_add", { content: "Works on the billing service" })] },
          { tool_calls: [call("memory_search", { query: "TABS" })] },
          { tool_calls: [call("memory_update", { id: "fact_1", content: "Prefers spaces now" })] },
          { tool_calls: [call("memory_delete", { id: "fact_2" })] },
          { tool_calls: [call("memory_delete", { id: "fact_404" })] },
          { content: "Noted." },
        ],
      },
      { turns: [{ content: "Hello." }] },
    ];
    await writeFile(join(home, "script.json"), JSON.stringify(script));
    const { config } = parseConfig(
      {
        models: [{ name: "scripted", use: "scripted", model: "s", script: "script.json" }],
        memory: { mode: "tool", debounce_seconds: 3600 },
        title: { enabled: false },
      },
      { env: { FAWN_HOME: home }, cwd: home },
    );
    const documents = new MemoryDocumentStore();
    const factory = createLeadAgentFactory({
      config,
      checkpointer: new MemorySaver(),
      baseDir: home,
      logger,
      documents,
    });
    const store = new MemoryStore({ documents, logger });
    await store.update("alice", () => ({
      ...emptyMemory(),
      user: { ...emptyMemory().user, workContext: { summary: "Backend dev.", updatedAt: "" } },
    }));

    const run = async (userId: string, threadId: string, text: string) => {
      const configurable = { thread_id: threadId, user_id: userId };
      const agent = await factory({ config: { configurable } });
      const calls = new LeadModelCalls();
      let last: unknown;
      const stream = await agent.stream(
        { messages: [new HumanMessage(text)] },
        { configurable, callbacks: [calls], streamMode: "values" },
      );
      for await (const chunk of stream) last = chunk;
      const messages = (last as { messages: BaseMessage[] }).messages;
      const outputs = messages
        .filter((m) => ToolMessage.isInstance(m))
        .map((m) => contentText(m.content));
      return { calls, outputs };
    };

    const { calls, outputs } = await withBlockingIoGate(() =>
      run("alice", "t-1", "remember my preferences"),
    );
    expect(calls.tools[0]).toEqual(
      expect.arrayContaining(["memory_search", "memory_add", "memory_update", "memory_delete"]),
    );
    expect(outputs[0]).toMatch(/^Remembered as fact_[0-9a-f]{12}\.$/);
    const firstId = /fact_[0-9a-f]{12}/.exec(outputs[0] ?? "")?.[0] ?? "";
    expect(outputs[1]).toBe(`Already remembered as ${firstId}.`);
    expect(outputs[2]).toMatch(/^Remembered as fact_/);
    expect(outputs[3]).toBe(`${firstId} [preference] Prefers tabs over spaces (0.90)`);
    expect(outputs[4]).toBe("Error: no memory with id fact_1. Use memory_search to find ids.");
    expect(outputs[5]).toBe("Error: no memory with id fact_2. Use memory_search to find ids.");
    expect(outputs[6]).toContain("no memory with id fact_404");

    const stored = await store.read("alice");
    expect(stored.facts.map((fact) => [fact.content, fact.category, fact.source])).toEqual([
      ["Prefers tabs over spaces", "preference", "t-1"],
      ["Works on the billing service", "context", "t-1"],
    ]);
    // Another user's memory is untouched.
    expect((await store.read("bob")).facts).toEqual([]);

    // Tool mode queues no background update after the run.
    expect(memoryQueueFor(home, logger).pendingCount).toBe(0);

    // The next run's prompt has the summaries and the hint, not the facts.
    const second = await run("alice", "t-2", "hi");
    const prompt = second.calls.prompts[0] ?? "";
    expect(prompt).toContain("- Work: Backend dev.");
    expect(prompt).toContain("memory_search");
    expect(prompt).not.toContain("Prefers tabs over spaces");
  });
});

describe("memory tools on their own", () => {
  const config = (userId: string) => ({ configurable: { thread_id: "t", user_id: userId } });

  it("update and delete act by id; adding beyond max_facts evicts the least confident", async () => {
    const store = new MemoryStore({ documents: new MemoryDocumentStore(), logger });
    let id = 0;
    const [search, add, update, remove] = createMemoryTools({
      store,
      budget: { maxFacts: 2 },
      newFactId: () => `fact_${++id}`,
    });
    if (!search || !add || !update || !remove) throw new Error("four tools expected");
    const text = async (tool: typeof add, args: Record<string, unknown>) =>
      String(await tool.invoke(args, config("alice")));

    expect(await text(search, { query: "" })).toBe("No memories yet.");
    expect(await text(add, { content: "Likes tea", confidence: 0.5 })).toBe(
      "Remembered as fact_1.",
    );
    expect(await text(add, { content: "Lives in Oslo", confidence: 0.9 })).toBe(
      "Remembered as fact_2.",
    );
    expect(await text(add, { content: "Has a cat", confidence: 0.8 })).toBe(
      "Remembered as fact_3.",
    );
    expect(await text(add, { content: "Maybe likes jazz", confidence: 0.1 })).toMatch(
      /^Not remembered: memory is full/,
    );
    expect(await text(search, { query: "" })).toBe(
      "fact_2 [context] Lives in Oslo (0.90)\nfact_3 [context] Has a cat (0.80)",
    );
    expect(await text(update, { id: "fact_3", content: "Has two cats", category: "context" })).toBe(
      "Updated fact_3.",
    );
    expect(await text(search, { query: "cats" })).toBe("fact_3 [context] Has two cats (0.80)");
    expect(await text(search, { query: "dogs" })).toBe("No memory matches that query.");
    expect(await text(remove, { id: "fact_2" })).toBe("Forgot fact_2.");
    expect((await store.read("alice")).facts.map((fact) => fact.id)).toEqual(["fact_3"]);
    expect((await store.read("bob")).facts).toEqual([]);
  });

  it("ranks by matched words, then confidence", () => {
    const fact = (id: string, content: string, confidence: number): MemoryFact => ({
      id,
      content,
      category: "context",
      confidence,
      createdAt: "",
      source: "t",
    });
    const facts = [
      fact("a", "Uses Python at work", 0.9),
      fact("b", "Python and Rust at home", 0.7),
      fact("c", "Rust fan", 0.95),
    ];
    expect(rankFacts(facts, "python rust").map((f) => f.id)).toEqual(["b", "c", "a"]);
  });
});
