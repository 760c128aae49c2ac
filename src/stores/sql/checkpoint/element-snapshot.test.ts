import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { matchesSnapshot, snapshotElement } from "./element-snapshot.js";

function aiMessage(): AIMessage {
  return new AIMessage({
    id: "ai-1",
    content: [{ type: "text", text: "Looking it up." }],
    tool_calls: [{ id: "call-1", name: "weather", args: { city: "Oslo", days: [1, 2] } }],
    response_metadata: { model: "scripted", usage: { input: 10, output: 4 } },
  });
}

/** Snapshot, apply `edit`, and say whether the snapshot still vouches for the value. */
function stillMatchesAfter<T>(value: T, edit: (value: T) => void): boolean {
  const snapshot = snapshotElement(value);
  expect(snapshot).toBeDefined();
  edit(value);
  return matchesSnapshot(value, snapshot ?? []);
}

describe("element snapshots", () => {
  it("vouch for an untouched message, also after reading every field", () => {
    const message = aiMessage();
    expect(
      stillMatchesAfter(message, (m) => {
        void m.content;
        void m.tool_calls?.[0]?.args;
        void JSON.stringify(m);
      }),
    ).toBe(true);
  });

  it("see a field reassigned on the message itself", () => {
    expect(
      stillMatchesAfter(new HumanMessage({ id: "h", content: "a" }), (m) => {
        m.content = "b";
      }),
    ).toBe(false);
    expect(
      stillMatchesAfter(aiMessage(), (m) => {
        m.additional_kwargs = { ...m.additional_kwargs, status: "failed" };
      }),
    ).toBe(false);
    expect(
      stillMatchesAfter(aiMessage(), (m) => {
        m.id = "ai-2";
      }),
    ).toBe(false);
  });

  it("see edits deep inside: a tool call argument, a pushed content block, a removed key", () => {
    expect(
      stillMatchesAfter(aiMessage(), (m) => {
        const call = m.tool_calls?.[0];
        if (call) call.args.city = "Paris";
      }),
    ).toBe(false);
    expect(
      stillMatchesAfter(aiMessage(), (m) => {
        const call = m.tool_calls?.[0];
        if (call) (call.args.days as number[]).push(3);
      }),
    ).toBe(false);
    expect(
      stillMatchesAfter(aiMessage(), (m) => {
        (m.content as unknown[]).push({ type: "text", text: "more" });
      }),
    ).toBe(false);
    expect(
      stillMatchesAfter(aiMessage(), (m) => {
        delete (m.response_metadata as Record<string, unknown>).usage;
      }),
    ).toBe(false);
    expect(
      stillMatchesAfter(aiMessage(), (m) => {
        (m.response_metadata as Record<string, unknown>).extra = 1;
      }),
    ).toBe(false);
  });

  it("vouch for a field replaced by an equal new object: equal data serializes the same", () => {
    expect(
      stillMatchesAfter(aiMessage(), (m) => {
        m.response_metadata = { ...m.response_metadata };
      }),
    ).toBe(true);
  });

  it("see a key moved to the end, which changes the serialized bytes", () => {
    expect(
      stillMatchesAfter({ a: 1, b: 2 }, (v: Record<string, number>) => {
        const a = v.a ?? 0;
        delete v.a;
        v.a = a;
      }),
    ).toBe(false);
  });

  it("see an empty null-prototype object turn into null", () => {
    expect(
      stillMatchesAfter({ a: Object.create(null) as object | null }, (v) => {
        v.a = null;
      }),
    ).toBe(false);
  });

  it("see plain data lists and objects change", () => {
    expect(
      stillMatchesAfter({ a: [1, 2] }, (v) => {
        v.a[1] = 3;
      }),
    ).toBe(false);
    expect(
      stillMatchesAfter([{ a: 1 }], (v) => {
        v.length = 0;
      }),
    ).toBe(false);
    expect(
      stillMatchesAfter({ a: 1 }, (v) => {
        Object.setPrototypeOf(v, null);
      }),
    ).toBe(false);
  });

  it("refuse what a walk cannot see into: maps, dates, bytes, functions, foreign classes, cycles", () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [
      new Map([["a", 1]]),
      { at: new Date(0) },
      { bytes: new Uint8Array([1]) },
      { callback: () => 1 },
      new Point(1),
      { nested: new Point(1) },
      cyclic,
      "a string",
      42,
      null,
    ]) {
      expect(snapshotElement(value)).toBeUndefined();
    }
  });
});
