/**
 * `on_completion` on stateless runs (`POST /runs…` without a thread), with the real LangGraph
 * SDK: `"delete"` makes the thread the call created temporary — deleted once the run has settled,
 * after `/runs/wait` has answered the final values — like the LangGraph API. `"keep"`, no value,
 * a named existing thread and thread-scoped runs keep their thread.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TemporaryThreads } from "../../src/gateway/runs/temporary-threads.js";
import { ThreadStateService } from "../../src/gateway/state/thread-state-service.js";
import { ThreadService } from "../../src/gateway/threads/thread-service.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";
import { say } from "./helpers/sdk-stream.js";

// The SDK sends `onCompletion` as `on_completion` on every run call, but its typings lag the
// server schema (LangGraph API: "delete" | "keep"): they leave the field out of stateless
// `wait`/`stream` payloads and type it "complete" | "continue". Payloads are typed as the
// thread-scoped ones (the last overload), and the server's values are cast once, here.
type WaitPayload = NonNullable<Parameters<Client["runs"]["wait"]>[2]>;
type StreamPayload = NonNullable<Parameters<Client["runs"]["stream"]>[2]>;
type OnCompletion = WaitPayload["onCompletion"];
const DELETE = "delete" as unknown as OnCompletion;
const KEEP = "keep" as unknown as OnCompletion;

/** Waits for a condition (not a timing assertion: only how long to wait for it at most). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await check()); waited += 25) {
    if (waited > 30_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("on_completion on stateless runs", () => {
  let harness: GatewayHarness;
  let client: Client;

  beforeAll(async () => {
    harness = await startGatewayHarness({ database: "sqlite" });
    client = harness.client;
  });

  afterAll(async () => {
    await harness?.close();
  });

  async function threadStatus(threadId: string): Promise<number> {
    const response = await fetch(`${harness.apiUrl}/threads/${threadId}`);
    await response.body?.cancel();
    return response.status;
  }

  const gone = (threadId: string) => async () => (await threadStatus(threadId)) === 404;

  it('"delete" with runs.wait: the values are answered, then the temporary thread is deleted', async () => {
    let created: { run_id: string; thread_id?: string } | undefined;
    const payload: WaitPayload = {
      input: say("temporary"),
      onCompletion: DELETE,
      onRunCreated: (meta) => {
        created = meta;
      },
    };
    const values = (await client.runs.wait(null, "lead_agent", payload)) as {
      messages: Array<{ content: unknown }>;
    };
    expect(values.messages.length).toBeGreaterThan(0);
    expect(values.messages[0]?.content).toBe("temporary");
    const threadId = created?.thread_id ?? "";
    expect(threadId).not.toBe("");
    await eventually(gone(threadId), "the temporary thread to be deleted");
    // Its runs and state went with it.
    const state = await fetch(`${harness.apiUrl}/threads/${threadId}/state`);
    expect(state.status).toBe(404);
    await state.body?.cancel();
    const runs = await fetch(`${harness.apiUrl}/threads/${threadId}/runs/${created?.run_id}`);
    expect(runs.status).toBe(404);
    await runs.body?.cancel();
  });

  it('"delete" with runs.create and runs.stream: deleted after the run settles', async () => {
    const run = await client.runs.create(null, "lead_agent", {
      input: say("background"),
      onCompletion: DELETE,
    });
    expect(run).toMatchObject({ kwargs: { temporary: true } });
    await client.runs.join(run.thread_id, run.run_id).catch(() => undefined);
    await eventually(gone(run.thread_id), "the background run's thread to be deleted");

    let streamed: { run_id: string; thread_id?: string } | undefined;
    const events: string[] = [];
    const payload: StreamPayload = {
      input: say("streamed"),
      onCompletion: DELETE,
      onRunCreated: (meta) => {
        streamed = meta;
      },
    };
    for await (const part of client.runs.stream(null, "lead_agent", payload)) {
      events.push(part.event);
    }
    expect(events).toContain("values");
    await eventually(gone(streamed?.thread_id ?? ""), "the streamed run's thread to be deleted");
  });

  it("a hold (the /runs/wait answer being read) keeps the temporary thread until released", async () => {
    const { fawn } = harness;
    const temporary = new TemporaryThreads(
      fawn,
      new ThreadService(
        { home: fawn.config.home, manager: fawn.manager, stores: fawn.stores },
        new ThreadStateService(fawn.checkpointer),
      ),
      fawn.logger,
    );
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", { input: say("held") });
    const owner = (await fawn.stores.threads.get(thread.thread_id))?.user_id ?? "";
    const hold = temporary.deleteWhenSettled(run.run_id, thread.thread_id, owner);
    await client.runs.join(thread.thread_id, run.run_id);

    // A later temporary run settles and is deleted; the held thread is still there.
    const marker = await client.runs.create(null, "lead_agent", {
      input: say("marker"),
      onCompletion: DELETE,
    });
    await client.runs.join(marker.thread_id, marker.run_id).catch(() => undefined);
    await eventually(gone(marker.thread_id), "the marker thread to be deleted");
    expect(await threadStatus(thread.thread_id)).toBe(200);

    hold.release();
    await eventually(gone(thread.thread_id), "the held thread to be deleted once released");
  });

  it('"keep", no value, an existing named thread and thread-scoped runs keep their thread', async () => {
    const kept: string[] = [];
    for (const onCompletion of [KEEP, undefined]) {
      let created: { run_id: string; thread_id?: string } | undefined;
      const payload: WaitPayload = {
        input: say(`kept ${String(onCompletion ?? "default")}`),
        ...(onCompletion ? { onCompletion } : {}),
        onRunCreated: (meta) => {
          created = meta;
        },
      };
      await client.runs.wait(null, "lead_agent", payload);
      kept.push(created?.thread_id ?? "");
    }

    const existing = await client.threads.create();
    const named = await client.runs.create(null, "lead_agent", {
      input: say("named"),
      onCompletion: DELETE,
      config: { configurable: { thread_id: existing.thread_id } },
    });
    expect(named.thread_id).toBe(existing.thread_id);
    expect(named).not.toHaveProperty("kwargs.temporary");
    await client.runs.join(existing.thread_id, named.run_id);
    kept.push(existing.thread_id);

    const scoped = await client.threads.create();
    await client.runs.wait(scoped.thread_id, "lead_agent", {
      input: say("scoped"),
      onCompletion: DELETE,
    });
    kept.push(scoped.thread_id);

    // None of them got a deletion scheduled; a temporary run after them is deleted while they stay.
    const marker = await client.runs.create(null, "lead_agent", {
      input: say("marker"),
      onCompletion: DELETE,
    });
    await client.runs.join(marker.thread_id, marker.run_id).catch(() => undefined);
    await eventually(gone(marker.thread_id), "the marker thread to be deleted");
    for (const threadId of kept) {
      expect(await threadStatus(threadId)).toBe(200);
    }
  });
});
