import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { createTestAgent, type TestAgent } from "./harness.js";

const plan = (statuses: [string, string]) => ({
  name: "write_todos",
  args: {
    todos: [
      { content: "Collect the figures", status: statuses[0] },
      { content: "Write the summary", status: statuses[1] },
    ],
  },
});

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.dispose();
  agent = undefined;
});

const reminders = (messages: readonly BaseMessage[]) =>
  messages.filter(
    (m): m is HumanMessage => HumanMessage.isInstance(m) && m.name === "todo_reminder",
  );

describe("TodoMiddleware (plan mode)", () => {
  it("write_todos updates state; finishing early sends the model back with a reminder", async () => {
    agent = await createTestAgent({
      run: { planMode: true },
      script: [
        {
          turns: [
            { content: "Planning.", tool_calls: [plan(["in_progress", "pending"])] },
            { content: "Done, I think." },
            { content: "Finishing the list.", tool_calls: [plan(["completed", "completed"])] },
            { content: "All done: figures collected and summary written." },
          ],
        },
      ],
    });
    const state = await agent.run("t-todos", "Prepare the quarterly summary");

    expect(state.todos).toEqual([
      { content: "Collect the figures", status: "completed" },
      { content: "Write the summary", status: "completed" },
    ]);
    expect(state.messages.at(-1)?.content).toBe("All done: figures collected and summary written.");
    expect(reminders(state.messages)).toHaveLength(1);
    expect(String(reminders(state.messages)[0]?.content)).toMatch(
      /\[in_progress\] Collect the figures/,
    );
    expect(agent.evidence.actions("todos")).toEqual(["completion_reminder"]);
    // Plan mode explains write_todos in the system prompt and offers the tool.
    const first = agent.requests.lead[0];
    expect(first?.tools).toContain("write_todos");
    expect(String(first?.messages[0]?.content)).toContain("<todo_list>");
  });

  it("sends the model back at most twice per exchange", async () => {
    agent = await createTestAgent({
      run: { planMode: true },
      script: [
        { turns: [{ tool_calls: [plan(["pending", "pending"])] }, { content: "Not doing it." }] },
      ],
    });
    const state = await agent.run("t-stubborn", "Prepare the quarterly summary");
    expect(reminders(state.messages)).toHaveLength(2);
    expect(agent.requests.lead).toHaveLength(4);
    expect(state.messages.at(-1)?.content).toBe("Not doing it.");
  });

  it("is off outside plan mode", async () => {
    agent = await createTestAgent({ script: [{ turns: [{ content: "hi" }] }] });
    await agent.run("t-plain", "hello");
    expect(agent.requests.lead[0]?.tools).not.toContain("write_todos");
  });
});
