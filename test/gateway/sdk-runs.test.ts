/**
 * Runs through the unmodified LangGraph SDK Client over HTTP: streaming in every mode the UI
 * uses, create + join, wait, stateless runs, list/get/delete, resume with a Command, idempotency
 * keys, webhooks, delayed starts, run events.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";
import { say } from "./helpers/sdk-stream.js";

let h: GatewayHarness;
let client: Client;

beforeAll(async () => {
  h = await startGatewayHarness();
  client = h.client;
});
afterAll(async () => {
  await h?.close();
});

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${h.apiUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

describe("runs via the SDK", () => {
  it("streams values, messages-tuple, updates and custom with metadata first and no end frame", async () => {
    const thread = await client.threads.create();
    let created: { run_id: string; thread_id?: string } | undefined;
    const parts = await collect(
      client.runs.stream(thread.thread_id, "lead_agent", {
        input: say("hi"),
        streamMode: ["values", "messages-tuple", "updates", "custom"],
        onRunCreated: (meta) => {
          created = meta;
        },
      }),
    );
    const events = parts.map((p) => p.event);
    expect(events[0]).toBe("metadata");
    expect(events).not.toContain("end");
    expect(events).toEqual(expect.arrayContaining(["values", "messages", "updates", "custom"]));
    expect(events).not.toContain("messages-tuple");
    expect(created).toEqual({ run_id: expect.any(String), thread_id: thread.thread_id });
    const metadata = parts[0]?.data as { run_id: string };
    expect(metadata.run_id).toBe(created?.run_id);

    const message = parts.find((p) => p.event === "messages")?.data as [
      { content: string; type: string },
      object,
    ];
    expect(message[0]).toMatchObject({ content: "echo: hi", type: "ai" });
    expect(message[1]).toMatchObject({ langgraph_node: "respond" });
    const custom = parts.find((p) => p.event === "custom")?.data;
    expect(custom).toMatchObject({ type: "progress", text: "hi" });
    const updates = parts.find((p) => p.event === "updates")?.data as Record<string, unknown>;
    expect(Object.keys(updates)).toEqual(["respond"]);
    const lastValues = parts.filter((p) => p.event === "values").at(-1)?.data as {
      messages: unknown[];
    };
    expect(lastValues.messages).toHaveLength(2);

    // The SDK yields each frame's `id` though its types leave it out.
    const ids = parts.map((p) => (p as { id?: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("serves the same API under /api/langgraph", async () => {
    const aliased = new Client({ apiUrl: `${h.url}/api/langgraph`, apiKey: null });
    const thread = await aliased.threads.create();
    const parts = await collect(
      aliased.runs.stream(thread.thread_id, "lead_agent", { input: say("alias") }),
    );
    expect(parts.at(-1)?.event).toBe("values");
    expect((await client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
  });

  it("streams the default values mode when none is given", async () => {
    const thread = await client.threads.create();
    const parts = await collect(
      client.runs.stream(thread.thread_id, "lead_agent", { input: say("x") }),
    );
    expect([...new Set(parts.map((p) => p.event))]).toEqual(["metadata", "values"]);
  });

  it("creates a run and joins it for the final values", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", { input: say("join me") });
    expect(run).toMatchObject({ thread_id: thread.thread_id, assistant_id: "lead_agent" });
    expect(["pending", "running", "success"]).toContain(run.status);
    const values = (await client.runs.join(thread.thread_id, run.run_id)) as {
      messages: Array<{ content: string }>;
    };
    expect(values.messages.map((m) => m.content)).toEqual(["join me", "echo: join me"]);
    const finished = await client.runs.get(thread.thread_id, run.run_id);
    expect(finished.status).toBe("success");
  });

  it("waits for a run, and raises a failed run's error", async () => {
    const thread = await client.threads.create();
    const values = (await client.runs.wait(thread.thread_id, "lead_agent", {
      input: say("w"),
    })) as {
      messages: unknown[];
    };
    expect(values.messages).toHaveLength(2);
    await expect(
      client.runs.wait(thread.thread_id, "lead_agent", { input: say("fail") }),
    ).rejects.toThrow(/graph exploded on purpose/);
    const [failed] = await client.runs.list(thread.thread_id, { limit: 1 });
    expect(failed).toMatchObject({ status: "error" });
  });

  it("runs statelessly: the thread is created for the caller", async () => {
    let created: { run_id: string; thread_id?: string } | undefined;
    const parts = await collect(
      client.runs.stream(null, "lead_agent", {
        input: say("stateless"),
        onRunCreated: (meta) => {
          created = meta;
        },
      }),
    );
    expect(parts.at(-1)?.event).toBe("values");
    const threadId = created?.thread_id ?? "";
    const thread = await client.threads.get(threadId);
    expect(thread.thread_id).toBe(threadId);
    const values = (await client.runs.wait(null, "lead_agent", {
      input: say("again"),
      config: { configurable: { thread_id: threadId } },
    })) as { messages: unknown[] };
    expect(values.messages).toHaveLength(4);
  });

  it("lists, gets and deletes runs", async () => {
    const thread = await client.threads.create();
    const first = await client.runs.wait(thread.thread_id, "lead_agent", { input: say("a") });
    expect(first).toBeTruthy();
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("b") });
    const runs = await client.runs.list(thread.thread_id);
    expect(runs).toHaveLength(2);
    expect(runs.every((r) => r.status === "success")).toBe(true);
    const one = await client.runs.list(thread.thread_id, { limit: 1, offset: 1 });
    expect(one).toHaveLength(1);
    const [newest] = runs;
    if (!newest) throw new Error("no runs");
    const got = await client.runs.get(thread.thread_id, newest.run_id);
    expect(got.run_id).toBe(newest.run_id);
    await client.runs.delete(thread.thread_id, newest.run_id);
    await expect(client.runs.get(thread.thread_id, newest.run_id)).rejects.toMatchObject({
      status: 404,
    });
    expect(await client.runs.list(thread.thread_id)).toHaveLength(1);
  });

  it("pauses on interrupt() and resumes with a Command", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("ask") });
    const paused = await client.threads.get(thread.thread_id);
    expect(paused.status).toBe("interrupted");
    const interrupts = Object.values(paused.interrupts).flat();
    expect(interrupts[0]).toMatchObject({ value: { question: "continue?" } });
    const state = await client.threads.getState(thread.thread_id);
    expect(state.next).toEqual(["ask"]);
    expect(state.tasks[0]?.interrupts[0]).toMatchObject({ value: { question: "continue?" } });

    const parts = await collect(
      client.runs.stream(thread.thread_id, "lead_agent", { command: { resume: "yes" } }),
    );
    const last = parts.filter((p) => p.event === "values").at(-1)?.data as {
      messages: Array<{ content: string }>;
    };
    expect(last.messages.at(-1)?.content).toBe("answer: yes");
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("stops before a node with interrupt_before and continues on a null input", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "lead_agent", {
      input: say("ask"),
      interruptBefore: ["ask"],
    });
    const before = await client.threads.getState(thread.thread_id);
    expect(before.next).toEqual(["ask"]);
    expect(before.tasks[0]?.interrupts).toEqual([]);
    await client.runs.wait(thread.thread_id, "lead_agent", { input: null });
    const asking = await client.threads.getState(thread.thread_id);
    expect(asking.tasks[0]?.interrupts[0]).toMatchObject({ value: { question: "continue?" } });
  });

  it("strict_resume refuses a resume when nothing is interrupted", async () => {
    const thread = await client.threads.create();
    const response = await post(`/threads/${thread.thread_id}/runs`, {
      command: { resume: "x" },
      strict_resume: true,
    });
    expect(response.status).toBe(409);
  });

  it("returns the same run for the same Idempotency-Key", async () => {
    const thread = await client.threads.create();
    const body = { assistant_id: "lead_agent", input: say("once") };
    const first = await post(`/threads/${thread.thread_id}/runs`, body, {
      "Idempotency-Key": "key-1",
    });
    const second = await post(`/threads/${thread.thread_id}/runs`, body, {
      "Idempotency-Key": "key-1",
    });
    const a = (await first.json()) as { run_id: string };
    const b = (await second.json()) as { run_id: string };
    expect(second.status).toBe(200);
    expect(b.run_id).toBe(a.run_id);
    await client.runs.join(thread.thread_id, a.run_id);
    expect(await client.runs.list(thread.thread_id)).toHaveLength(1);
    const other = await client.threads.create();
    const clash = await post(`/threads/${other.thread_id}/runs`, body, {
      "Idempotency-Key": "key-1",
    });
    expect(clash.status).toBe(409);
  });

  it("rejects unknown fields and unsupported stream modes with 422", async () => {
    const thread = await client.threads.create();
    const unknown = await post(`/threads/${thread.thread_id}/runs`, {
      input: say("x"),
      surprise: 1,
    });
    expect(unknown.status).toBe(422);
    const body = (await unknown.json()) as { code: string };
    expect(body.code).toBe("validation_failed");
    const mode = await post(`/threads/${thread.thread_id}/runs/stream`, {
      input: say("x"),
      stream_mode: "tokens",
    });
    expect(mode.status).toBe(422);
    expect(await client.runs.list(thread.thread_id)).toHaveLength(0);
  });

  it("accepts every field the SDK sends", async () => {
    const thread = await client.threads.create();
    const values = (await client.runs.wait(thread.thread_id, "lead_agent", {
      input: say("all fields"),
      config: { recursion_limit: 10, tags: ["t"], configurable: { model_name: "x" } },
      context: { mode: "fast" },
      metadata: { origin: "test" },
      interruptBefore: [],
      interruptAfter: [],
      multitaskStrategy: "reject",
      onDisconnect: "continue",
      ifNotExists: "reject",
      durability: "async",
      onCompletion: "complete",
    })) as { messages: unknown[] };
    expect(values.messages).toHaveLength(2);
    const [run] = await client.runs.list(thread.thread_id);
    expect(run?.metadata).toMatchObject({ origin: "test" });
    const created = await post(`/threads/${thread.thread_id}/runs`, {
      input: say("more"),
      stream_mode: ["values", "messages-tuple"],
      stream_subgraphs: true,
      stream_resumable: true,
      feedback_keys: ["score"],
      checkpoint_during: true,
      langsmith_tracer: { project_name: "p" },
      after_seconds: 0,
    });
    expect(created.status).toBe(200);
    const { run_id } = (await created.json()) as { run_id: string };
    await client.runs.join(thread.thread_id, run_id);
  });

  it("forks from a checkpoint", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("one") });
    const forkPoint = await client.threads.getState(thread.thread_id);
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("two") });
    const values = (await client.runs.wait(thread.thread_id, "lead_agent", {
      input: say("branch"),
      checkpoint: forkPoint.checkpoint,
    })) as { messages: Array<{ content: string }> };
    expect(values.messages.map((m) => m.content)).toEqual([
      "one",
      "echo: one",
      "branch",
      "echo: branch",
    ]);
    const missing = await post(`/threads/${thread.thread_id}/runs`, {
      input: say("x"),
      checkpoint_id: "nope",
    });
    expect(missing.status).toBe(404);
  });

  it("creates a missing thread only with if_not_exists=create", async () => {
    const response = await post("/threads/not-there-yet/runs/wait", { input: say("x") });
    expect(response.status).toBe(404);
    const values = (await client.runs.wait("created-on-run", "lead_agent", {
      input: say("x"),
      ifNotExists: "create",
    })) as { messages: unknown[] };
    expect(values.messages).toHaveLength(2);
  });

  it("delays the start with after_seconds", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("later"),
      afterSeconds: 0.2,
    });
    expect(run.status).toBe("pending");
    await client.runs.join(thread.thread_id, run.run_id);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
  });

  it("POSTs the finished run to its webhook", async () => {
    const received: Array<Record<string, unknown>> = [];
    let delivered: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    const receiver = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>);
      res.end("ok");
      delivered();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as AddressInfo;
    try {
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, "lead_agent", {
        input: say("hook"),
        webhook: `http://127.0.0.1:${port}/done`,
      });
      await arrived;
      expect(received[0]).toMatchObject({
        run_id: run.run_id,
        thread_id: thread.thread_id,
        status: "success",
      });
      expect(received[0]?.values).toHaveProperty("messages");
    } finally {
      receiver.close();
    }
  });

  it("serves run events and message pages", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", { input: say("events") });
    await client.runs.join(thread.thread_id, run.run_id);
    const base = `${h.apiUrl}/threads/${thread.thread_id}/runs/${run.run_id}`;
    const events = (await (await fetch(`${base}/events`)).json()) as Array<{
      seq: number;
      event_type: string;
    }>;
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((e) => e.event_type)).toContain("run.terminal");
    const seqs = events.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    const terminal = (await (
      await fetch(`${base}/events?event_types=run.terminal`)
    ).json()) as unknown[];
    expect(terminal).toHaveLength(1);
    const first = seqs[0] ?? 0;
    const after = (await (
      await fetch(`${base}/events?after_seq=${first}&limit=1`)
    ).json()) as Array<{ seq: number }>;
    expect(after).toHaveLength(1);
    expect(after[0]?.seq).toBeGreaterThan(first);
    const runMessages = (await (await fetch(`${base}/messages`)).json()) as {
      data: unknown[];
      has_more: boolean;
    };
    expect(runMessages).toHaveProperty("has_more");
    const page = (await (
      await fetch(`${h.apiUrl}/threads/${thread.thread_id}/messages/page?limit=1`)
    ).json()) as {
      data: unknown[];
      has_more: boolean;
    };
    expect(page).toHaveProperty("next_before_seq");
    const bad = await fetch(`${h.apiUrl}/threads/${thread.thread_id}/messages/page?after_seq=1`);
    expect(bad.status).toBe(422);
  });
});
