/** Stored run kwargs are read back as a RunInvocation: the written shape survives, malformed fields do not. */
import { describe, expect, it } from "vitest";
import { decodeRunInvocation, type RunInvocation } from "../../src/ports/run-types.js";

describe("decodeRunInvocation", () => {
  it("keeps every field of an invocation as written", () => {
    const written: RunInvocation = {
      graph_id: "echo",
      input: { messages: [{ role: "user", content: "hi" }] },
      command: { resume: "yes", goto: [{ node: "a", input: 1 }, "b"], update: [["k", 2]] },
      config: { configurable: { user_id: "u" }, recursionLimit: 100 },
      stream_mode: ["values", "messages"],
      stream_subgraphs: true,
      interrupt_before: "*",
      interrupt_after: ["tools"],
      webhook: "https://example.com/hook",
      temporary: true,
    };
    expect(decodeRunInvocation(JSON.parse(JSON.stringify(written)))).toEqual(written);
    expect(decodeRunInvocation({})).toEqual({});
    expect(decodeRunInvocation({ input: null, command: null })).toEqual({
      input: null,
      command: null,
    });
  });

  it("drops fields that do not have the written shape", () => {
    expect(
      decodeRunInvocation({
        input: "kept",
        command: { goto: 3 },
        config: ["not", "an", "object"],
        stream_mode: ["values", "bogus"],
        stream_subgraphs: "yes",
        interrupt_before: "tools",
        interrupt_after: [1],
        webhook: 7,
        temporary: "true",
        graph_id: 7,
        unknown_key: 1,
      }),
    ).toEqual({ input: "kept" });
  });
});
