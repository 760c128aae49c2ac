/**
 * Cancellation and multitask strategies through the SDK. Runs park on a latch (`hold:<name>`) so
 * every interleaving is forced, never timed.
 */
import type { Client } from "@langchain/langgraph-sdk";
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

async function contents(threadId: string): Promise<string[]> {
  const state = await client.threads.getState<{ messages?: Array<{ content: string }> }>(threadId);
  return (state.values.messages ?? []).map((m) => m.content);
}

async function holding(threadId: string, name: string, extra: Record<string, unknown> = {}) {
  const run = await client.runs.create(threadId, "lead_agent", {
    input: say(`hold:${name}`),
    ...extra,
  });
  await h.controls.arrived(name);
  return run;
}

describe("cancel", () => {
  it("interrupts a running run and waits for it (204)", async () => {
    const thread = await client.threads.create();
    const run = await holding(thread.thread_id, "cancel-i");
    await client.runs.cancel(thread.thread_id, run.run_id, true, "interrupt");
    const after = await client.runs.get(thread.thread_id, run.run_id);
    expect(after.status).toBe("interrupted");
    expect(await contents(thread.thread_id)).toEqual(["hold:cancel-i", "echo: hold:cancel-i"]);
    expect((await client.threads.get(thread.thread_id)).status).toBe("interrupted");
    // Cancelling again is idempotent; the thread takes new runs.
    await client.runs.cancel(thread.thread_id, run.run_id, true, "interrupt");
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("next") });
  });

  it("rolls back a running run to the state before it", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("kept") });
    const run = await holding(thread.thread_id, "cancel-r");
    await client.runs.cancel(thread.thread_id, run.run_id, true, "rollback");
    const after = await client.runs.get(thread.thread_id, run.run_id);
    expect(after.status).toBe("error");
    expect(await contents(thread.thread_id)).toEqual(["kept", "echo: kept"]);
  });

  it("answers 202 without wait, 409 for a finished run, 404 for an unknown one", async () => {
    const thread = await client.threads.create();
    const run = await holding(thread.thread_id, "cancel-202");
    const accepted = await fetch(
      `${h.apiUrl}/threads/${thread.thread_id}/runs/${run.run_id}/cancel?wait=0&action=interrupt`,
      { method: "POST" },
    );
    expect(accepted.status).toBe(202);
    await client.runs.join(thread.thread_id, run.run_id);
    const done = await client.runs.create(thread.thread_id, "lead_agent", { input: say("done") });
    await client.runs.join(thread.thread_id, done.run_id);
    await expect(client.runs.cancel(thread.thread_id, done.run_id)).rejects.toMatchObject({
      status: 409,
    });
    await expect(client.runs.cancel(thread.thread_id, "no-such-run")).rejects.toMatchObject({
      status: 404,
    });
  });

  /** Start a streamed run, read it until `name` is reached, then drop the connection. */
  async function streamThenDisconnect(
    threadId: string,
    name: string,
    onDisconnect: "cancel" | "continue" | undefined,
  ): Promise<string> {
    const abort = new AbortController();
    let created: (runId: string) => void = () => undefined;
    const runId = new Promise<string>((resolve) => {
      created = resolve;
    });
    const stream = client.runs.stream(threadId, "lead_agent", {
      input: say(`hold:${name}`),
      ...(onDisconnect ? { onDisconnect } : {}),
      signal: abort.signal,
      onRunCreated: (meta) => created(meta.run_id),
    });
    const reading = (async () => {
      for await (const _ of stream) {
        // Drain until the abort below ends the iteration.
      }
    })().catch(() => undefined);
    const id = await runId;
    await h.controls.arrived(name);
    abort.abort();
    await reading;
    return id;
  }

  it("cancels on client disconnect when on_disconnect is cancel", async () => {
    const thread = await client.threads.create();
    const runId = await streamThenDisconnect(thread.thread_id, "disc-cancel", "cancel");
    await client.runs.join(thread.thread_id, runId);
    expect((await client.runs.get(thread.thread_id, runId)).status).toBe("interrupted");
  });

  it("keeps running after a disconnect by default (on_disconnect continue)", async () => {
    const thread = await client.threads.create();
    const runId = await streamThenDisconnect(thread.thread_id, "disc-continue", undefined);
    expect((await client.runs.get(thread.thread_id, runId)).status).toBe("running");
    h.controls.release("disc-continue");
    await client.runs.join(thread.thread_id, runId);
    expect((await client.runs.get(thread.thread_id, runId)).status).toBe("success");
  });
});

describe("multitask strategies", () => {
  it("reject: a busy thread answers 409 and keeps its run", async () => {
    const thread = await client.threads.create();
    const first = await holding(thread.thread_id, "mt-reject");
    await expect(
      client.runs.create(thread.thread_id, "lead_agent", {
        input: say("second"),
        multitaskStrategy: "reject",
      }),
    ).rejects.toMatchObject({ status: 409 });
    h.controls.release("mt-reject");
    await client.runs.join(thread.thread_id, first.run_id);
    expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("success");
    expect(await client.runs.list(thread.thread_id)).toHaveLength(1);
  });

  it("interrupt: the running run is interrupted, the new one runs on its state", async () => {
    const thread = await client.threads.create();
    const first = await holding(thread.thread_id, "mt-interrupt");
    const second = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("second"),
      multitaskStrategy: "interrupt",
    });
    await client.runs.join(thread.thread_id, second.run_id);
    expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("interrupted");
    expect((await client.runs.get(thread.thread_id, second.run_id)).status).toBe("success");
    expect(await contents(thread.thread_id)).toEqual([
      "hold:mt-interrupt",
      "echo: hold:mt-interrupt",
      "second",
      "echo: second",
    ]);
  });

  it("rollback: the running run is undone, the new one runs on the state before it", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("base") });
    const first = await holding(thread.thread_id, "mt-rollback");
    const second = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("second"),
      multitaskStrategy: "rollback",
    });
    await client.runs.join(thread.thread_id, second.run_id);
    expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("error");
    expect((await client.runs.get(thread.thread_id, second.run_id)).status).toBe("success");
    expect(await contents(thread.thread_id)).toEqual([
      "base",
      "echo: base",
      "second",
      "echo: second",
    ]);
  });

  it("enqueue: the new run waits, then runs after the first", async () => {
    const thread = await client.threads.create();
    const first = await holding(thread.thread_id, "mt-enqueue");
    const second = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("queued"),
      multitaskStrategy: "enqueue",
    });
    expect(second.status).toBe("pending");
    expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("running");
    h.controls.release("mt-enqueue");
    await client.runs.join(thread.thread_id, second.run_id);
    expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("success");
    expect((await client.runs.get(thread.thread_id, second.run_id)).status).toBe("success");
    expect(await contents(thread.thread_id)).toEqual([
      "hold:mt-enqueue",
      "echo: hold:mt-enqueue",
      "queued",
      "echo: queued",
    ]);
  });

  it("deleting a thread with a run in flight is 409", async () => {
    const thread = await client.threads.create();
    const run = await holding(thread.thread_id, "mt-delete");
    await expect(client.threads.delete(thread.thread_id)).rejects.toMatchObject({ status: 409 });
    h.controls.release("mt-delete");
    await client.runs.join(thread.thread_id, run.run_id);
    await client.threads.delete(thread.thread_id);
    await expect(client.threads.get(thread.thread_id)).rejects.toMatchObject({ status: 404 });
  });
});
