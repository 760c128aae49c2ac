/**
 * The journal's `llm.human.input` is the run's own input — the human messages its request brought
 * — not the first human message of the model's prompt (which, from the second turn on, is an
 * earlier turn's). A run resumed from an interrupt brought none and journals none.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  Command,
  END,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { StreamingAgent } from "../../src/ports/agent.js";
import { identifyRunInput } from "../../src/runtime/journal/run-input.js";
import { RunJournal } from "../../src/runtime/journal/run-journal.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import { RunService } from "../../src/runtime/run-service.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { within } from "../helpers/latch.js";

function textOf(message: BaseMessage | undefined): string {
  return typeof message?.content === "string" ? message.content : "";
}

describe("identifyRunInput", () => {
  it("gives each human message of input.messages an id, in every form the reducer accepts", () => {
    const kept = new HumanMessage({ content: "kept", id: "client-id" });
    const { graphInput, humanMessages } = identifyRunInput({
      messages: [
        { role: "user", content: "dict" },
        "plain string",
        kept,
        { type: "ai", content: "not human" },
      ],
      other: 1,
    });
    expect(humanMessages.map(textOf)).toEqual(["dict", "plain string", "kept"]);
    expect(humanMessages[2]?.id).toBe("client-id");
    const ids = humanMessages.map((m) => m.id);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(3);
    // The graph runs on the same messages, with those ids; other entries and keys are untouched.
    const input = graphInput as { messages: unknown[]; other: number };
    expect(input.other).toBe(1);
    expect(input.messages.slice(0, 3)).toEqual(humanMessages);
    expect(input.messages[3]).toEqual({ type: "ai", content: "not human" });
  });

  it("finds none in a resume command and none in an empty input", () => {
    const resume = new Command({ resume: "yes" });
    expect(identifyRunInput(resume)).toEqual({ graphInput: resume, humanMessages: [] });
    expect(identifyRunInput(null).humanMessages).toEqual([]);
    expect(identifyRunInput({ messages: [] }).humanMessages).toEqual([]);
  });

  it("names the human messages of a command's update", () => {
    const { graphInput, humanMessages } = identifyRunInput(
      new Command({ resume: "ok", update: { messages: [{ role: "user", content: "also" }] } }),
    );
    expect(humanMessages.map(textOf)).toEqual(["also"]);
    expect(graphInput).toBeInstanceOf(Command);
    const command = graphInput as Command;
    expect(command.resume).toBe("ok");
    expect(command.update).toEqual({ messages: humanMessages });
  });
});

describe("RunJournal human input", () => {
  const stores = createMemoryStores();
  const earlier = new HumanMessage({ content: "first turn", id: "h1" });
  const answer = new AIMessage({ content: "first answer", id: "a1" });

  function journalFor(runId: string, humanInput: HumanMessage[]): RunJournal {
    return new RunJournal({
      eventStore: stores.events,
      threadId: "human-input-unit",
      runId,
      userId: null,
      humanInput,
    });
  }

  async function humanRows(journal: RunJournal) {
    await journal.close();
    const events = await stores.events.listEvents(journal.threadId, journal.runId);
    return events.filter((event) => event.event_type === "llm.human.input");
  }

  /** A run as the graph reports it: the root chain starts, then the lead model is called. */
  function runWith(journal: RunJournal, prompt: BaseMessage[]): void {
    journal.handleChainStart({ name: "lead_agent" }, {}, `${journal.runId}-root`);
    journal.handleChatModelStart({}, [prompt], `${journal.runId}-llm`);
  }

  it("journals the run's own message, not the prompt's first human message", async () => {
    const own = new HumanMessage({ content: "second turn", id: "h2" });
    const journal = journalFor("r2", [own]);
    runWith(journal, [new SystemMessage("system"), earlier, answer, own]);
    const rows = await humanRows(journal);
    expect(rows.map((row) => row.content)).toEqual([
      expect.objectContaining({ type: "human", id: "h2", content: "second turn" }),
    ]);
    expect(rows[0]?.metadata).toEqual({ caller: "lead_agent" });
    expect(journal.completionData()).toMatchObject({
      first_human_message: "second turn",
      message_count: 1,
    });
  });

  it("journals nothing for a run that brought no human message (a resume)", async () => {
    const journal = journalFor("r3", []);
    runWith(journal, [earlier, answer]);
    expect(await humanRows(journal)).toEqual([]);
    expect(journal.completionData().first_human_message).toBeNull();
  });

  it("journals each message the request brought, once, even over two root invocations", async () => {
    const own = [
      new HumanMessage({ content: "part one", id: "h4" }),
      new HumanMessage({ content: "part two", id: "h5" }),
    ];
    const journal = journalFor("r4", own);
    runWith(journal, [earlier, answer, ...own]);
    journal.handleChainStart({ name: "lead_agent" }, {}, "r4-second-root");
    const rows = await humanRows(journal);
    expect(rows.map((row) => (row.content as { id: string }).id)).toEqual(["h4", "h5"]);
    expect(journal.completionData().first_human_message).toBe("part one");
  });

  it("marks a tool result with its caller, so a sub-agent's stays off the pages", async () => {
    const journal = journalFor("r6", []);
    const result = new ToolMessage({ content: "done", tool_call_id: "c1", name: "bash" });
    journal.handleToolEnd(result, "t1", "p1", ["subagent:general-purpose"]);
    journal.handleToolEnd(result, "t2", "p1", []);
    await journal.close();
    const events = await stores.events.listEvents(journal.threadId, journal.runId);
    expect(events.map((event) => event.metadata)).toEqual([
      { caller: "subagent:general-purpose" },
      { caller: "lead_agent" },
    ]);
  });

  it("journals a run's message even when the run stops before any model call", async () => {
    const journal = journalFor("r5", [new HumanMessage({ content: "stopped", id: "h6" })]);
    journal.handleChainStart({ name: "lead_agent" }, {}, "r5-root");
    const rows = await humanRows(journal);
    expect(rows.map((row) => (row.content as { id: string }).id)).toEqual(["h6"]);
  });
});

class EchoModel extends BaseChatModel {
  _llmType(): string {
    return "echo";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const message = new AIMessage(`echo ${textOf(messages.at(-1))}`);
    return { generations: [{ text: textOf(message), message }] };
  }
}

describe("RunJournal human input through the worker, across turns and a resume", () => {
  it("journals each run's own message, and none for the resumed run", async () => {
    const model = new EchoModel({});
    // A message asking to confirm waits for the user before the model answers it.
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("gate", (state) => {
        if (textOf(state.messages.at(-1)).includes("confirm")) interrupt("confirm?");
        return {};
      })
      .addNode("agent", async (state, config: RunnableConfig) => ({
        messages: [await model.invoke(state.messages, config)],
      }))
      .addEdge(START, "gate")
      .addEdge("gate", "agent")
      .addEdge("agent", END)
      .compile({ checkpointer: new MemorySaver() });
    const agent: StreamingAgent = {
      stream: (input, options) =>
        graph.stream(input as { messages: BaseMessage[] }, {
          configurable: options.configurable,
          callbacks: options.callbacks as RunnableConfig["callbacks"],
          streamMode: "values",
          signal: options.signal,
        }),
    };
    const stores = createMemoryStores();
    const service = new RunService({
      manager: new RunManager({ store: stores.runs }),
      bridge: new MemoryStreamBridge(),
      ctx: { eventStore: stores.events, spawnHousekeeping: () => undefined },
      agentFactory: () => agent,
    });
    const threadId = "human-input-worker";
    const humanInputOf = async (invocation: { input: unknown; command?: { resume: string } }) => {
      const record = await service.submit({ threadId, invocation });
      await within(record.task?.settled() ?? Promise.resolve("done"), 10_000, "run not done");
      const events = await stores.events.listEvents(threadId, record.runId);
      const row = await stores.runs.get(record.runId);
      return {
        inputs: events
          .filter((event) => event.event_type === "llm.human.input")
          .map((event) => (event.content as { content: string }).content),
        first: row?.first_human_message ?? null,
      };
    };
    const say = (content: string) => ({ input: { messages: [{ role: "user", content }] } });

    expect(await humanInputOf(say("first"))).toEqual({ inputs: ["first"], first: "first" });
    // Interrupted before the model: its message is still the run's own.
    expect(await humanInputOf(say("second, confirm"))).toEqual({
      inputs: ["second, confirm"],
      first: "second, confirm",
    });
    expect(await humanInputOf({ input: null, command: { resume: "yes" } })).toEqual({
      inputs: [],
      first: null,
    });
    expect(await humanInputOf(say("third"))).toEqual({ inputs: ["third"], first: "third" });

    // Every human row has the id the thread state gives that message.
    const state = await graph.getState({ configurable: { thread_id: threadId } });
    const stateIds = (state.values.messages as BaseMessage[])
      .filter((message) => message.getType() === "human")
      .map((message) => message.id);
    const rows = (await stores.events.listMessages(threadId)).filter(
      (event) => event.event_type === "llm.human.input",
    );
    expect(stateIds).toHaveLength(3);
    expect(rows.map((row) => (row.content as { id: string }).id)).toEqual(stateIds);
    await service.manager.shutdown({ timeoutMs: 1000 });
  });
});
