import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../web/src/chat/message-groups.js";
import { keepStoppedMessages } from "../../web/src/chat/stopped-messages.js";

const human = (id: string | undefined, content: string): ChatMessage => ({
  type: "human",
  id,
  content,
});
const ai = (id: string, content: string): ChatMessage => ({ type: "ai", id, content });

describe("keepStoppedMessages", () => {
  it("appends the cut-off answer after the stored state", () => {
    const stored = [human("h1", "hi"), ai("a1", "hello"), human("h2", "more")];
    const shown = [human("h1", "hi"), ai("a1", "hello"), human(undefined, "more"), ai("a2", "par")];
    expect(keepStoppedMessages(stored, shown)).toEqual([...stored, ai("a2", "par")]);
  });

  it("keeps a running tool call and its partial text, never a second copy of the input", () => {
    const stored = [human("h1", "go")];
    const call: ChatMessage = {
      type: "ai",
      id: "a1",
      content: "",
      tool_calls: [{ id: "c1", name: "bash", args: {} }],
    };
    const shown = [human(undefined, "go"), call];
    expect(keepStoppedMessages(stored, shown)).toEqual([human("h1", "go"), call]);
  });

  it("keeps what was shown when nothing was stored yet", () => {
    expect(keepStoppedMessages([], [human(undefined, "go"), ai("a1", "part")])).toEqual([
      human(undefined, "go"),
      ai("a1", "part"),
    ]);
  });

  it("changes nothing when the stored state already has everything shown", () => {
    const stored = [human("h1", "hi"), ai("a1", "hello")];
    expect(keepStoppedMessages(stored, stored)).toEqual(stored);
  });
});
