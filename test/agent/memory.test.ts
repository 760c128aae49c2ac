/**
 * Memory: an update from a scripted model's JSON answer, the write gate
 * (labels, confidence threshold, dedupe, removals, max_facts), bad answers changing nothing, only
 * the user's words and final answers reaching the update, per-thread debounce collapsing a burst,
 * forget disarming queued updates, per-user isolation and serialization, the `<memory>` block's
 * budget, and whole runs: memory learned in one thread is injected into the next run's prompt,
 * and createFawn's close flushes waiting updates.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import {
  applyMemoryUpdate,
  type MemoryWriteRules,
} from "../../src/agent/memory/apply-memory-update.js";
import { emptyMemory, type MemoryDocument } from "../../src/agent/memory/memory-document.js";
import { renderMemoryInjection } from "../../src/agent/memory/memory-injection.js";
import { conversationTurns } from "../../src/agent/memory/memory-middleware.js";
import { MemoryStore } from "../../src/agent/memory/memory-store.js";
import {
  flushMemoryUpdates,
  type MemoryUpdateJob,
  MemoryUpdateQueue,
} from "../../src/agent/memory/memory-update-queue.js";
import { updateMemoryFromConversation } from "../../src/agent/memory/memory-updater.js";
import { parseMemoryUpdate } from "../../src/agent/memory/parse-memory-update.js";
import { contentText } from "../../src/agent/middlewares/conversation.js";
import { errorFallbackMessage } from "../../src/agent/middlewares/model-retry/model-retry-middleware.js";
import { parseScript } from "../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../src/agent/scripted/scripted-chat-model.js";
import { createFawn } from "../../src/app/create-fawn.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { FawnPaths } from "../../src/core/paths.js";
import { MemoryDocumentStore } from "../../src/stores/memory/document-store.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { within } from "../helpers/latch.js";

const logger = createLogger({ level: "silent" });
const RULES: MemoryWriteRules = { maxFacts: 100, factConfidenceThreshold: 0.7 };

const GOOD_UPDATE = {
  user: {
    workContext: {
      summary: "Data engineer at Acme, works on the billing pipeline.",
      shouldUpdate: true,
      scope: "user",
      authority: "descriptive",
    },
    personalContext: { summary: "", shouldUpdate: false },
    topOfMind: {
      summary: "Fix today's failing test.",
      shouldUpdate: true,
      scope: "thread",
      authority: "descriptive",
    },
  },
  history: {},
  newFacts: [
    fact("Prefers Python over Java", 0.95),
    fact("Uses PostgreSQL 16 at work", 0.8),
    fact("Might like jazz", 0.5),
    fact("Wants the report by Friday", 0.9, { durability: "temporary" }),
    fact("Current repo uses tabs", 0.9, { scope: "project" }),
    fact("May push to main", 0.99, { authority: "transactional" }),
    { content: "no labels at all", category: "context", confidence: 0.99 },
    { content: "", category: "context", confidence: 1 },
  ],
  factsToRemove: [],
};

function fact(
  content: string,
  confidence: number,
  labels: Partial<Record<"scope" | "durability" | "authority" | "category", string>> = {},
) {
  return {
    content,
    category: "preference",
    confidence,
    scope: "user",
    durability: "durable",
    authority: "descriptive",
    ...labels,
  };
}

function scriptedModel(memoryReply: string): ScriptedChatModel {
  return new ScriptedChatModel({
    script: parseScript(
      { rules: [{ turns: [{ content: "answer" }] }], middleware_replies: { memory: memoryReply } },
      "inline",
    ),
  });
}

let home: string;
let documents: MemoryDocumentStore;
let store: MemoryStore;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-memory-"));
  documents = new MemoryDocumentStore();
  store = new MemoryStore({ documents, legacyPaths: new FawnPaths(home), logger });
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const TURNS = [
  { role: "user" as const, text: "I'm a data engineer at Acme; I prefer Python." },
  { role: "assistant" as const, text: "Noted." },
];

describe("memory update from the model's answer", () => {
  it("stores the summaries and facts that pass the write gate, atomically", async () => {
    const applied = await withBlockingIoGate(() =>
      updateMemoryFromConversation({
        store,
        model: scriptedModel(`Here you go:\n\`\`\`json\n${JSON.stringify(GOOD_UPDATE)}\n\`\`\``),
        userId: "alice",
        threadId: "t-1",
        turns: TURNS,
        rules: RULES,
        logger,
      }),
    );
    expect(applied?.summaries).toEqual(["user.workContext"]);
    expect(applied?.added).toBe(2);
    const saved = await store.read("alice");
    expect(saved.user.workContext.summary).toBe(
      "Data engineer at Acme, works on the billing pipeline.",
    );
    expect(saved.user.topOfMind.summary).toBe("");
    expect(saved.facts.map((f) => [f.content, f.category, f.confidence, f.source])).toEqual([
      ["Prefers Python over Java", "preference", 0.95, "t-1"],
      ["Uses PostgreSQL 16 at work", "preference", 0.8, "t-1"],
    ]);
    expect(saved.facts.every((f) => /^fact_[0-9a-f]{12}$/.test(f.id))).toBe(true);
    expect(saved.revision).toBe(1);
  });

  it("an update queued before a forget in another process writes nothing", async () => {
    const queuedAt = new Date(Date.now() - 1_000);
    // Another process (its own store over the same documents) forgets after the queueing.
    await new MemoryStore({ documents, logger }).clear("alice");
    const applied = await updateMemoryFromConversation({
      store,
      model: scriptedModel(JSON.stringify(GOOD_UPDATE)),
      userId: "alice",
      threadId: "t-1",
      turns: TURNS,
      rules: RULES,
      queuedAt,
      logger,
    });
    expect(applied).toBeNull();
    expect((await store.read("alice")).facts).toEqual([]);
    // One queued after the forget is stored.
    const later = await updateMemoryFromConversation({
      store,
      model: scriptedModel(JSON.stringify(GOOD_UPDATE)),
      userId: "alice",
      threadId: "t-1",
      turns: TURNS,
      rules: RULES,
      queuedAt: new Date(Date.now() + 1_000),
      logger,
    });
    expect(later?.added).toBe(2);
  });

  it.each([
    ["a plain sentence", "OK"],
    ["broken JSON", '{"user": {'],
    ["JSON of another shape", '{"answer": 42}'],
    ["a JSON list", "[1, 2]"],
  ])("changes nothing on %s", async (_label, answer) => {
    expect(parseMemoryUpdate(answer)).toBeNull();
    const applied = await updateMemoryFromConversation({
      store,
      model: scriptedModel(answer),
      userId: "alice",
      threadId: "t-1",
      turns: TURNS,
      rules: RULES,
      logger,
    });
    expect(applied).toBeNull();
    expect(await documents.get("memory", "alice", "memory")).toBeNull();
  });

  it("the update call sees the current memory and the conversation, and is tagged middleware:memory", async () => {
    const seen: { tags: string[]; text: string }[] = [];
    const recorder = new (class extends BaseCallbackHandler {
      name = "recorder";
      override handleChatModelStart(
        _llm: unknown,
        messages: BaseMessage[][],
        _runId: string,
        _parent?: string,
        _extra?: Record<string, unknown>,
        tags?: string[],
      ): void {
        seen.push({
          tags: tags ?? [],
          text: (messages[0] ?? []).map((m) => contentText(m.content)).join("\n"),
        });
      }
    })();
    await store.update("alice", (memory) => ({
      ...memory,
      facts: [
        {
          id: "fact_old",
          content: "Lives in Lyon",
          category: "context",
          confidence: 0.9,
          createdAt: "",
          source: "t-0",
        },
      ],
    }));
    const model = scriptedModel("OK");
    model.callbacks = [recorder];
    await updateMemoryFromConversation({
      store,
      model,
      userId: "alice",
      threadId: "t-1",
      turns: TURNS,
      rules: RULES,
      logger,
    });
    expect(seen[0]?.tags).toContain("middleware:memory");
    expect(seen[0]?.text).toContain('"id": "fact_old"');
    expect(seen[0]?.text).toContain("User: I'm a data engineer at Acme; I prefer Python.");
    expect(seen[0]?.text).toContain("Assistant: Noted.");
  });
});

describe("the write gate", () => {
  const at = { threadId: "t", now: new Date("2026-01-02T03:04:05Z") };
  let counter = 0;
  const ids = { ...at, newFactId: () => `fact_${++counter}` };

  function withFacts(...contents: Array<[string, number, string?]>): MemoryDocument {
    return {
      ...emptyMemory(),
      facts: contents.map(([content, confidence, createdAt], index) => ({
        id: `old_${index}`,
        content,
        category: "context",
        confidence,
        createdAt: createdAt ?? "2025-01-01T00:00:00Z",
        source: "t-0",
      })),
    };
  }

  it("keeps only labelled user/durable/descriptive facts at or above the threshold", () => {
    const update = parseMemoryUpdate(JSON.stringify(GOOD_UPDATE));
    if (!update) throw new Error("parse failed");
    const applied = applyMemoryUpdate(emptyMemory(), update, RULES, ids);
    expect(applied?.memory.facts.map((f) => f.content)).toEqual([
      "Prefers Python over Java",
      "Uses PostgreSQL 16 at work",
    ]);
    expect(applied?.rejected).toBe(5);
    const lower = applyMemoryUpdate(
      emptyMemory(),
      update,
      { ...RULES, factConfidenceThreshold: 0.5 },
      ids,
    );
    expect(lower?.memory.facts.map((f) => f.content)).toContain("Might like jazz");
  });

  it("drops duplicates ignoring whitespace and case, within the answer and against memory", () => {
    const update = parseMemoryUpdate(
      JSON.stringify({
        newFacts: [
          fact("Prefers  dark mode", 0.9),
          fact("prefers dark MODE ", 0.95),
          fact("Lives in Lyon", 0.9),
          fact("Unknown category", 0.9, { category: "mood" }),
        ],
      }),
    );
    if (!update) throw new Error("parse failed");
    const applied = applyMemoryUpdate(withFacts(["lives   in lyon", 0.8]), update, RULES, ids);
    expect(applied?.memory.facts.map((f) => [f.content, f.category])).toEqual([
      ["lives   in lyon", "context"],
      ["Prefers dark mode", "preference"],
      ["Unknown category", "context"],
    ]);
    expect(applied?.rejected).toBe(2);
  });

  it("removes facts by id (user scope only) and evicts the least confident beyond max_facts", () => {
    const current = withFacts(
      ["A", 0.9, "2025-01-01T00:00:00Z"],
      ["B", 0.75, "2025-01-02T00:00:00Z"],
      ["C", 0.75, "2025-01-03T00:00:00Z"],
      ["D", 0.99, "2025-01-04T00:00:00Z"],
    );
    const update = parseMemoryUpdate(
      JSON.stringify({
        newFacts: [fact("E", 0.8)],
        factsToRemove: [
          { id: "old_0", scope: "user" },
          { id: "old_3", scope: "thread" },
          { id: "nope" },
        ],
      }),
    );
    if (!update) throw new Error("parse failed");
    const applied = applyMemoryUpdate(current, update, { ...RULES, maxFacts: 3 }, ids);
    expect(applied?.removed).toBe(1);
    // B (0.75, older) is evicted before C (0.75, newer); D and E are more confident.
    expect(applied?.memory.facts.map((f) => f.content)).toEqual(["C", "D", "E"]);
  });

  it("answers null when nothing changes, so nothing is written", () => {
    const update = parseMemoryUpdate(
      JSON.stringify({ user: { workContext: { summary: "x", shouldUpdate: false } } }),
    );
    if (!update) throw new Error("parse failed");
    expect(applyMemoryUpdate(emptyMemory(), update, RULES, ids)).toBeNull();
    const transactional = parseMemoryUpdate(
      JSON.stringify({
        history: {
          recentMonths: { summary: "May deploy.", shouldUpdate: true, authority: "transactional" },
        },
      }),
    );
    if (!transactional) throw new Error("parse failed");
    expect(applyMemoryUpdate(emptyMemory(), transactional, RULES, ids)).toBeNull();
  });
});

describe("what the update sees of a thread", () => {
  it("only the user's own words and the assistant's final answers (no error fallbacks)", () => {
    const messages: BaseMessage[] = [
      new HumanMessage({
        content: "<current_uploads>a.csv</current_uploads>\n\nSummarize my data",
        additional_kwargs: { original_user_content: "Summarize my data" },
      }),
      new AIMessage({
        content: "Let me look.",
        tool_calls: [{ id: "c1", name: "read_file", args: { path: "/x" } }],
      }),
      new ToolMessage({ content: "SECRET TOOL OUTPUT", tool_call_id: "c1" }),
      new HumanMessage({ content: "[LOOP DETECTED] stop", name: "loop_warning" }),
      new AIMessage({ content: "Your data has 3 rows." }),
      new HumanMessage("Thanks!"),
      new AIMessage({ content: "" }),
      errorFallbackMessage(new Error("provider down"), 3),
    ];
    expect(conversationTurns(messages)).toEqual([
      { role: "user", text: "Summarize my data" },
      { role: "assistant", text: "Your data has 3 rows." },
      { role: "user", text: "Thanks!" },
    ]);
  });
});

describe("the update queue", () => {
  function job(
    userId: string,
    threadId: string,
    log: string[],
    label: string,
    wanted?: (stillWanted: () => boolean) => void,
  ): MemoryUpdateJob {
    return {
      userId,
      threadId,
      delayMs: 3_600_000,
      run: async (stillWanted) => {
        wanted?.(stillWanted);
        log.push(label);
      },
    };
  }

  it("collapses a burst of runs of one thread into one update with the latest conversation", async () => {
    const queue = new MemoryUpdateQueue(logger);
    const log: string[] = [];
    queue.enqueue(job("alice", "t-1", log, "t-1 first"));
    queue.enqueue(job("alice", "t-1", log, "t-1 second"));
    queue.enqueue(job("alice", "t-2", log, "t-2 only"));
    queue.enqueue(job("alice", "t-1", log, "t-1 latest"));
    queue.enqueue(job("bob", "t-1", log, "bob t-1"));
    expect(queue.pendingCount).toBe(3);
    expect(await queue.flush(5_000)).toEqual({ completed: true });
    expect(log.sort()).toEqual(["bob t-1", "t-1 latest", "t-2 only"]);
    expect(queue.pendingCount).toBe(0);
  });

  it("forgetting a user drops their waiting updates and disarms running ones", async () => {
    const queue = new MemoryUpdateQueue(logger);
    const log: string[] = [];
    let check: (() => boolean) | undefined;
    queue.enqueue(job("alice", "t-1", log, "alice", (w) => (check = w)));
    queue.enqueue(job("bob", "t-1", log, "bob"));
    await queue.flush(5_000);
    expect(check?.()).toBe(true);
    queue.forgetUser("alice");
    expect(check?.()).toBe(false);
    queue.enqueue(job("alice", "t-2", log, "alice again"));
    queue.enqueue(job("bob", "t-2", log, "bob again"));
    queue.forgetUser("alice");
    await queue.flush(5_000);
    expect(log.sort()).toEqual(["alice", "bob", "bob again"]);
  });

  it("a failing update is logged and does not stop the others", async () => {
    const queue = new MemoryUpdateQueue(logger);
    const log: string[] = [];
    queue.enqueue({
      userId: "alice",
      threadId: "t-1",
      delayMs: 3_600_000,
      run: () => Promise.reject(new Error("model down")),
    });
    queue.enqueue(job("bob", "t-1", log, "bob"));
    expect(await queue.flush(5_000)).toEqual({ completed: true });
    expect(log).toEqual(["bob"]);
  });
});

describe("the memory store", () => {
  it("keeps each user's memory apart and refuses unsafe user ids", async () => {
    await store.update("alice", (memory) => ({
      ...memory,
      user: { ...memory.user, workContext: { summary: "Alice works at Acme.", updatedAt: "" } },
    }));
    expect((await store.read("alice")).user.workContext.summary).toBe("Alice works at Acme.");
    expect(await store.read("bob")).toEqual(emptyMemory());
  });

  it("serializes concurrent updates of one user: none is lost", async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.update("alice", (memory) => ({
          ...memory,
          facts: [
            ...memory.facts,
            {
              id: `f${index}`,
              content: `fact ${index}`,
              category: "context",
              confidence: 0.9,
              createdAt: "",
              source: "t",
            },
          ],
        })),
      ),
    );
    const saved = await store.read("alice");
    expect(saved.facts).toHaveLength(10);
    expect(saved.revision).toBe(10);
  });

  it("reads a damaged stored value as empty and keeps a copy before the next write", async () => {
    await documents.put("memory", "alice", "memory", { facts: "broken" }, 0);
    expect((await store.read("alice")).facts).toEqual([]);
    await store.clear("alice");
    const kept = await documents.list("memory", "alice");
    expect(kept.map((document) => document.key)).toEqual([
      "memory",
      expect.stringMatching(/^memory\.unreadable-\d+$/),
    ]);
    expect(kept[1]?.value).toEqual({ facts: "broken" });
  });

  it("imports a legacy memory.json once, then renames it", async () => {
    const dir = join(home, "users/alice");
    await mkdir(dir, { recursive: true });
    const legacy = {
      ...emptyMemory(),
      revision: 7,
      facts: [
        {
          id: "fact_old",
          content: "Likes tea",
          category: "preference",
          confidence: 0.9,
          createdAt: "2026-01-01T00:00:00.000Z",
          source: "t-0",
        },
      ],
    };
    await writeFile(join(dir, "memory.json"), JSON.stringify(legacy));
    // Two stores (two processes) import at once: the fact is stored once.
    const other = new MemoryStore({ documents, legacyPaths: new FawnPaths(home), logger });
    const [first, second] = await Promise.all([store.read("alice"), other.read("alice")]);
    expect(first.facts.map((f) => f.id)).toEqual(["fact_old"]);
    expect(second.facts.map((f) => f.id)).toEqual(["fact_old"]);
    expect((await readdir(dir)).sort()).toEqual(["memory.json.imported"]);
    await store.update("alice", (memory) => ({ ...memory, facts: [] }));
    // The file is not read again, even by a new store.
    const later = new MemoryStore({ documents, legacyPaths: new FawnPaths(home), logger });
    expect((await later.read("alice")).facts).toEqual([]);
  });
});

describe("the <memory> block", () => {
  it("puts summaries first, then the most confident facts, within the budget, escaped", () => {
    const memory: MemoryDocument = {
      ...emptyMemory(),
      user: {
        ...emptyMemory().user,
        workContext: { summary: "Builds <b>tools</b> at Acme.", updatedAt: "" },
      },
      facts: Array.from({ length: 200 }, (_, index) => ({
        id: `f${index}`,
        content: `Fact number ${index} ${"x".repeat(40)}`,
        category: "knowledge" as const,
        confidence: index / 200,
        createdAt: "",
        source: "t",
      })),
    };
    const block = renderMemoryInjection(memory, 200);
    expect(block).not.toBeNull();
    const text = block ?? "";
    expect(text.startsWith("<memory>\n")).toBe(true);
    expect(text.endsWith("\n</memory>")).toBe(true);
    expect(text.length).toBeLessThanOrEqual(200 * 4);
    expect(text).toContain("- Work: Builds &lt;b&gt;tools&lt;/b&gt; at Acme.");
    expect(text.indexOf("Work:")).toBeLessThan(text.indexOf("Fact number 199"));
    expect(text).not.toContain("Fact number 0 ");
    expect(renderMemoryInjection(emptyMemory(), 2000)).toBeNull();
  });
});

describe("memory across runs of the lead agent", () => {
  const memoryJson = JSON.stringify({
    user: {
      workContext: {
        summary: "Runs the data team at Acme.",
        shouldUpdate: true,
        scope: "user",
        authority: "descriptive",
      },
    },
    newFacts: [fact("Prefers answers as bullet lists", 0.95)],
  });

  async function configWith(extra: Record<string, unknown> = {}) {
    await writeFile(
      join(home, "script.json"),
      JSON.stringify({
        rules: [{ turns: [{ content: "Done." }] }],
        middleware_replies: { memory: memoryJson },
      }),
    );
    return parseConfig(
      {
        models: [{ name: "scripted", use: "scripted", model: "s", script: "script.json" }],
        memory: { debounce_seconds: 3600 },
        title: { enabled: false },
        ...extra,
      },
      { env: { FAWN_HOME: home }, cwd: home },
    ).config;
  }

  class LeadPrompts extends BaseCallbackHandler {
    name = "lead_prompts";
    readonly prompts: string[] = [];
    override handleChatModelStart(
      _llm: unknown,
      messages: BaseMessage[][],
      _runId: string,
      _parent?: string,
      _extra?: Record<string, unknown>,
      tags?: string[],
    ): void {
      const first = messages[0]?.[0];
      if (tags?.includes("lead_agent") && first) this.prompts.push(contentText(first.content));
    }
  }

  it("what one thread taught is in the next run's prompt, for that user only", async () => {
    const config = await configWith();
    const factory = createLeadAgentFactory({
      config,
      checkpointer: new MemorySaver(),
      baseDir: home,
      logger,
      documents,
    });
    const run = async (userId: string, threadId: string, text: string) => {
      const configurable = { thread_id: threadId, user_id: userId };
      const agent = await factory({ config: { configurable } });
      const prompts = new LeadPrompts();
      const stream = await agent.stream(
        { messages: [new HumanMessage(text)] },
        { configurable, callbacks: [prompts], streamMode: "values" },
      );
      for await (const _chunk of stream) {
        // drain
      }
      return prompts.prompts[0] ?? "";
    };
    const first = await run("alice", "t-a", "I run the data team at Acme; bullets please.");
    expect(first).not.toContain("<memory>");
    // The update waits for the thread to be quiet; shutdown (or the debounce) runs it.
    expect(await documents.get("memory", "alice", "memory")).toBeNull();
    await flushMemoryUpdates(home, 10_000);

    const second = await run("alice", "t-b", "Hello again");
    expect(second).toMatch(
      /<memory>\n[\s\S]*- Work: Runs the data team at Acme\.[\s\S]*<\/memory>/,
    );
    expect(second).toContain("- [preference] Prefers answers as bullet lists");
    expect(second.indexOf("<memory>")).toBeLessThan(second.indexOf("<current_date>"));
    const bob = await run("bob", "t-c", "Hi");
    expect(bob).not.toContain("<memory>");

    const off = createLeadAgentFactory({
      config: await configWith({ memory: { injection_enabled: false } }),
      checkpointer: new MemorySaver(),
      baseDir: home,
      logger,
      documents,
    });
    const configurable = { thread_id: "t-d", user_id: "alice" };
    const prompts = new LeadPrompts();
    const stream = await (await off({ config: { configurable } })).stream(
      { messages: [new HumanMessage("Hi")] },
      { configurable, callbacks: [prompts], streamMode: "values" },
    );
    for await (const _chunk of stream) {
      // drain
    }
    expect(prompts.prompts[0]).not.toContain("<memory>");
  });

  it("createFawn's close runs the waiting memory updates", async () => {
    const config = await configWith();
    const checkpointer = new MemorySaver();
    const stores = createMemoryStores();
    const fawn = await createFawn({
      config,
      stores,
      checkpointer,
      agentFactory: createLeadAgentFactory({
        config,
        checkpointer,
        baseDir: home,
        logger,
        documents: stores.documents,
      }),
      runContext: { spawnHousekeeping: () => undefined },
      logger,
    });
    try {
      const record = await fawn.runs.submit({
        threadId: "t-close",
        invocation: { input: { messages: [new HumanMessage("Remember: bullets.")] } },
      });
      await within(
        record.task ? record.task.settled().then(() => undefined) : Promise.resolve(),
        15_000,
        "run did not finish",
      );
      expect((await fawn.stores.runs.get(record.runId))?.status).toBe("success");
    } finally {
      await fawn.close();
    }
    const saved = await new MemoryStore({ documents: stores.documents }).read("default");
    expect(saved.facts.map((f) => f.content)).toEqual(["Prefers answers as bullet lists"]);
  });
});
