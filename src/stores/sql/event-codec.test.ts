import { describe, expect, it } from "vitest";
import { SerializedRunEvent } from "../../ports/serialized-run-event.js";
import { encodeEvent } from "./event-codec.js";

const fields = {
  thread_id: "thread-1",
  run_id: "run-1",
  event_type: "llm.ai.response",
  category: "message",
  metadata: { caller: "lead_agent" },
  created_at: "2026-01-02T03:04:05.678Z",
  user_id: null,
};

describe("encoding a journal's pre-serialized event", () => {
  it("keeps JSON content as text, hands the text to a store and the value to a reader", () => {
    const content = { type: "ai", content: "hi", tool_calls: [], n: 1.5 };
    const event = new SerializedRunEvent({ ...fields, content });
    expect(event.contentText()).toBe(JSON.stringify(content));
    expect(event.metadataText()).toBe('{"caller":"lead_agent"}');
    expect(event.content).toEqual(content);
    expect(event.content).toBe(event.content); // parsed once
    expect(encodeEvent(event, "unused")).toMatchObject({
      content: JSON.stringify(content),
      contentIsJson: true,
      metadata: '{"caller":"lead_agent","content_is_json":true}',
    });
  });

  it("stores string content as it is", () => {
    const event = new SerializedRunEvent({ ...fields, content: "plain text" });
    expect(event.contentText()).toBeUndefined();
    expect(event.content).toBe("plain text");
    expect(encodeEvent(event, "unused")).toMatchObject({
      content: "plain text",
      contentIsJson: false,
      metadata: '{"caller":"lead_agent"}',
    });
  });

  it("serializes a field again once a caller replaced it", () => {
    const event = new SerializedRunEvent({ ...fields, content: { a: 1 } });
    event.content = { b: 2 };
    event.metadata = { caller: "subagent" };
    expect(event.contentText()).toBeUndefined();
    expect(event.metadataText()).toBeUndefined();
    expect(encodeEvent(event, "unused")).toMatchObject({
      content: '{"b":2}',
      metadata: '{"caller":"subagent","content_is_json":true}',
    });
  });
});
