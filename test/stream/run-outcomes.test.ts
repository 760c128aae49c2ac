/**
 * How a run ends, as the SDK sees it: a graph's error class in the stream's `error` chunk, in
 * `/wait`'s `__error__` and in the stored run; static breakpoints and `interrupt()` end the run
 * and the thread `interrupted`, and a resume continues the graph.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testGraph } from "./helpers/graphs.js";
import {
  collect,
  graph,
  type StreamGateway,
  say,
  startStreamGateway,
} from "./helpers/stream-gateway.js";

let g: StreamGateway;

beforeAll(async () => {
  g = await startStreamGateway(testGraph);
});
afterAll(async () => {
  await g?.close();
});

describe("a failing graph keeps its error class", () => {
  it("stream: the last chunk is error {error: <class>, message}", async () => {
    const thread = await g.client.threads.create();
    const parts = await collect(
      g.client.runs.stream(thread.thread_id, "lead_agent", {
        input: {},
        streamMode: ["debug", "events"],
        config: graph("failing"),
      }),
    );
    expect(parts.at(-1)).toMatchObject({
      event: "error",
      data: { error: "CustomError", message: "Boo!" },
    });
    const [run] = await g.client.runs.list(thread.thread_id);
    expect(run?.status).toBe("error");
    expect((run as { error?: string } | undefined)?.error).toBe("CustomError: Boo!");
    expect((await g.client.threads.get(thread.thread_id)).status).toBe("error");
  });

  it("wait: __error__ names GraphRecursionError, which the SDK raises", async () => {
    const thread = await g.client.threads.create();
    await expect(
      g.client.runs.wait(thread.thread_id, "lead_agent", {
        input: {},
        config: graph("loop", { recursion_limit: 3 }),
      }),
    ).rejects.toThrow(/^GraphRecursionError: Recursion limit of 3 reached/);
    const values = await g.client.runs.wait(thread.thread_id, "lead_agent", {
      input: {},
      config: graph("failing"),
      raiseError: false,
    });
    expect((values as Record<string, unknown>).__error__).toEqual({
      error: "CustomError",
      message: "Boo!",
    });
    expect((await g.client.threads.get(thread.thread_id)).status).toBe("error");
  });

  it("create + joinStream: the error chunk too", async () => {
    const thread = await g.client.threads.create();
    const run = await g.client.runs.create(thread.thread_id, "lead_agent", {
      input: {},
      config: graph("failing"),
    });
    const parts = await collect(g.client.runs.joinStream(thread.thread_id, run.run_id));
    expect(parts.at(-1)).toMatchObject({
      event: "error",
      data: { error: "CustomError", message: "Boo!" },
    });
    expect((await g.client.runs.get(thread.thread_id, run.run_id)).status).toBe("error");
  });
});

describe("interrupts end the run and the thread interrupted", () => {
  it("interruptBefore stops before the node; a null-input run continues", async () => {
    const thread = await g.client.threads.create();
    const parts = await collect(
      g.client.runs.stream(thread.thread_id, "lead_agent", {
        input: {},
        streamMode: ["values", "updates"],
        interruptBefore: ["second"],
        config: graph("steps"),
      }),
    );
    expect(parts.filter((p) => p.event === "error")).toEqual([]);
    expect(parts.filter((p) => p.event === "updates").map((p) => p.data)).toEqual([
      { first: { steps: ["first"] } },
      { __interrupt__: [] },
    ]);
    const [stopped] = await g.client.runs.list(thread.thread_id);
    expect(stopped?.status).toBe("interrupted");
    expect((await g.client.threads.get(thread.thread_id)).status).toBe("interrupted");

    const values = await g.client.runs.wait(thread.thread_id, "lead_agent", {
      input: null,
      config: graph("steps"),
    });
    expect(values).toMatchObject({ steps: ["first", "second", "third"] });
    const runs = await g.client.runs.list(thread.thread_id);
    expect(runs.map((r) => r.status).sort()).toEqual(["interrupted", "success"]);
    expect((await g.client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("interruptAfter stops after the node; a resume command continues", async () => {
    const thread = await g.client.threads.create();
    await g.client.runs.wait(thread.thread_id, "lead_agent", {
      input: {},
      interruptAfter: ["first"],
      config: graph("steps"),
    });
    expect((await g.client.threads.get(thread.thread_id)).status).toBe("interrupted");
    const state = await g.client.threads.getState(thread.thread_id);
    expect(state.values).toMatchObject({ steps: ["first"] });
    const values = await g.client.runs.wait(thread.thread_id, "lead_agent", {
      command: { resume: "go on" },
      config: graph("steps"),
    });
    expect(values).toMatchObject({ steps: ["first", "second", "third"] });
    expect((await g.client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("interrupt() inside a node: interrupted, then resumed with its value", async () => {
    const thread = await g.client.threads.create();
    const parts = await collect(
      g.client.runs.stream(thread.thread_id, "lead_agent", {
        input: {},
        streamMode: ["updates"],
        config: graph("ask"),
      }),
    );
    const interrupt = parts.find((p) => p.event === "updates")?.data as {
      __interrupt__: Array<{ value: unknown }>;
    };
    expect(interrupt.__interrupt__[0]?.value).toEqual({ question: "name?" });
    const [asked] = await g.client.runs.list(thread.thread_id);
    expect(asked?.status).toBe("interrupted");
    const pending = await g.client.threads.get(thread.thread_id);
    expect(pending.status).toBe("interrupted");
    expect(Object.values(pending.interrupts).flat()).toMatchObject([
      { value: { question: "name?" } },
    ]);

    const values = await g.client.runs.wait(thread.thread_id, "lead_agent", {
      command: { resume: "Ada" },
      config: graph("ask"),
    });
    expect(values).toMatchObject({ answer: "Ada", steps: ["ask"] });
    expect((await g.client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("a run that ends normally is a success and leaves the thread idle", async () => {
    const thread = await g.client.threads.create();
    await g.client.runs.wait(thread.thread_id, "lead_agent", {
      input: say("hi"),
      config: graph("chat"),
    });
    const [run] = await g.client.runs.list(thread.thread_id);
    expect(run?.status).toBe("success");
    expect((await g.client.threads.get(thread.thread_id)).status).toBe("idle");
  });
});
