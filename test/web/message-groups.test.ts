/** The chat's grouping pipeline: flat LangChain messages → user bubbles, steps, questions, answers. */
import { describe, expect, it } from "vitest";
import {
  type ChatMessage,
  contentText,
  groupMessages,
  splitReasoning,
  stripInternalTags,
  toolCallSummary,
} from "../../web/src/chat/message-groups.js";
import { modelLabel } from "../../web/src/chat/model-label.js";

const human = (id: string, content: unknown, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  type: "human",
  id,
  content,
  ...extra,
});

describe("groupMessages", () => {
  it("puts tool calls and their results in one steps block before the final answer", () => {
    const groups = groupMessages([
      human("h1", "Write me a short report"),
      {
        type: "ai",
        id: "a1",
        content: "Plan: compute, write, present.",
        additional_kwargs: { reasoning_content: "Primes are exact." },
        tool_calls: [
          { id: "c1", name: "bash", args: { description: "Compute", command: "seq 2 99" } },
        ],
      },
      { type: "tool", id: "t1", tool_call_id: "c1", name: "bash", content: "count 25" },
      {
        type: "ai",
        id: "a2",
        content: "",
        tool_calls: [
          { id: "c2", name: "write_file", args: { path: "/mnt/user-data/outputs/r.md" } },
        ],
      },
      { type: "ai", id: "a3", content: "Done." },
    ]);
    expect(groups.map((group) => group.kind)).toEqual(["human", "steps", "assistant"]);
    const steps = groups[1];
    expect(steps?.kind === "steps" && steps.steps).toEqual([
      { kind: "reasoning", text: "Primes are exact." },
      { kind: "text", text: "Plan: compute, write, present." },
      {
        kind: "tool",
        id: "c1",
        name: "bash",
        args: { description: "Compute", command: "seq 2 99" },
        result: "count 25",
        failed: false,
      },
      {
        kind: "tool",
        id: "c2",
        name: "write_file",
        args: { path: "/mnt/user-data/outputs/r.md" },
        result: undefined,
        failed: false,
      },
    ]);
    expect(groups[2]).toMatchObject({ kind: "assistant", text: "Done.", reasoning: "" });
  });

  it("marks a failed tool result and keeps each turn's steps apart", () => {
    const groups = groupMessages([
      human("h1", "one"),
      { type: "ai", id: "a1", content: "", tool_calls: [{ id: "c1", name: "bash", args: {} }] },
      {
        type: "tool",
        tool_call_id: "c1",
        name: "bash",
        content: "Error: no bash",
        status: "error",
      },
      human("h2", "two"),
      { type: "ai", id: "a2", content: "", tool_calls: [{ id: "c2", name: "ls", args: {} }] },
    ]);
    expect(groups.map((group) => group.kind)).toEqual(["human", "steps", "human", "steps"]);
    expect(groups[1]).toMatchObject({
      steps: [{ id: "c1", failed: true, result: "Error: no bash" }],
    });
    expect(groups[3]).toMatchObject({ steps: [{ id: "c2", result: undefined }] });
  });

  it("shows an ask_clarification result as a question with its options", () => {
    const groups = groupMessages([
      human("h1", "plan a weekend trip"),
      {
        type: "ai",
        id: "a1",
        content: "",
        tool_calls: [{ id: "q1", name: "ask_clarification", args: { question: "Which city?" } }],
      },
      {
        type: "tool",
        id: "t1",
        tool_call_id: "q1",
        name: "ask_clarification",
        content: "❓ Which city?\n\n1. Lisbon\n2. Kyoto",
        artifact: {
          human_input: {
            question: "Which city?",
            options: [
              { id: "option_1", label: "Lisbon", value: "Lisbon" },
              { id: "option_2", label: "Kyoto", value: "Kyoto" },
            ],
          },
        },
      },
    ]);
    expect(groups.at(-1)).toEqual({
      kind: "clarification",
      key: "clarification:t1",
      question: "Which city?",
      context: "",
      options: [
        { label: "Lisbon", value: "Lisbon" },
        { label: "Kyoto", value: "Kyoto" },
      ],
      text: "❓ Which city?\n\n1. Lisbon\n2. Kyoto",
    });
  });

  it("hides hidden and system messages, strips the uploads block and lists attached files", () => {
    const groups = groupMessages([
      { type: "system", content: "You are Fawn." },
      human("h0", "answer", { additional_kwargs: { hide_from_ui: true } }),
      human(
        "h1",
        "<current_uploads>\n- visits.csv (1 KB): /mnt/user-data/uploads/visits.csv\n</current_uploads>\n\nWhat is in it?",
        { additional_kwargs: { files: [{ filename: "visits.csv", size: 30 }] } },
      ),
      { type: "ai", id: "a0", content: "" },
    ]);
    expect(groups).toEqual([
      {
        kind: "human",
        key: "human:h1",
        messageId: "h1",
        text: "What is in it?",
        files: [{ filename: "visits.csv" }],
      },
    ]);
  });

  it("keys messages without ids by position", () => {
    const groups = groupMessages([{ type: "human", content: "hi" }]);
    expect(groups[0]?.key).toBe("human:index:0");
  });
});

describe("message content helpers", () => {
  it("joins text parts and ignores other parts", () => {
    expect(
      contentText([{ type: "text", text: "a" }, { type: "image_url", image_url: "x" }, "b"]),
    ).toBe("ab");
    expect(contentText(null)).toBe("");
  });

  it("splits <think> text and reasoning parts from the answer", () => {
    expect(splitReasoning({ type: "ai", content: "<think>hmm</think>Answer" })).toEqual({
      text: "Answer",
      reasoning: "hmm",
    });
    expect(
      splitReasoning({
        type: "ai",
        content: [
          { type: "reasoning", reasoning: "why" },
          { type: "text", text: "what" },
        ],
      }),
    ).toEqual({ text: "what", reasoning: "why" });
  });

  it("strips every internal block", () => {
    expect(stripInternalTags("<uploaded_files>x</uploaded_files>\nhello")).toBe("hello");
  });

  it("summarizes tool calls by their most telling argument", () => {
    expect(toolCallSummary("bash", { description: "Compute", command: "ls" })).toBe("Compute");
    expect(toolCallSummary("bash", { command: "ls -la\necho hi" })).toBe("ls -la");
    expect(toolCallSummary("present_files", { filepaths: ["/a.md", "/b.md"] })).toBe(
      "/a.md, /b.md",
    );
    expect(toolCallSummary("x", { path: "p".repeat(200) })).toHaveLength(120);
  });

  it("labels the offline demo model as such", () => {
    const model = { name: "demo", is_default: true, description: null };
    expect(modelLabel({ ...model, display_name: "Demo", offline_demo: true })).toBe(
      "Demo (offline demo)",
    );
    expect(
      modelLabel({ ...model, display_name: "Demo (offline, scripted)", offline_demo: true }),
    ).toBe("Demo (offline, scripted)");
    expect(modelLabel({ ...model, display_name: null, offline_demo: false })).toBe("demo");
  });
});
