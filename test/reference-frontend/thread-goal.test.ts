/**
 * `GET/PUT/DELETE /api/threads/{id}/goal` as the reference's composer calls them (`/goal
 * <condition>`, `/goal`, `/goal clear`): `{goal}` answers, the goal visible in the thread's
 * `values.goal`, a new chat's goal set before its thread exists, bad input a 422 with nothing
 * stored, and no user reading or changing another's goal.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/two-user-server.js";

let ref: ReferenceServer;

beforeAll(async () => {
  ref = await startReferenceServer([{ turns: [{ content: "Done." }] }]);
});
afterAll(async () => {
  await ref?.close();
});

describe("thread goal", () => {
  it("sets a goal on a new chat's id, reads it, shows it in the state and clears it", async () => {
    const threadId = randomUUID();
    expect((await ref.call("alice", "GET", `/threads/${threadId}/goal`)).json).toEqual({
      goal: null,
    });
    const set = await ref.call("alice", "PUT", `/threads/${threadId}/goal`, {
      objective: "  Ship   the report  ",
      max_continuations: 3,
    });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({
      goal: {
        objective: "Ship the report",
        status: "active",
        created_at: expect.any(String),
        updated_at: expect.any(String),
        continuation_count: 0,
        max_continuations: 3,
        no_progress_count: 0,
        max_no_progress_continuations: 2,
      },
    });
    // The thread now exists and is alice's; its state carries the goal (the UI's GoalStatus).
    const thread = await ref.sdk.alice.threads.get(threadId);
    expect(thread.thread_id).toBe(threadId);
    const state = await ref.sdk.alice.threads.getState<{ goal: unknown }>(threadId);
    expect(state.values.goal).toEqual((set.json as { goal: unknown }).goal);
    expect((await ref.call("alice", "GET", `/threads/${threadId}/goal`)).json).toEqual(set.json);

    // A run after the goal keeps it; the default max is the reference's 8.
    await ref.runToEnd("alice", threadId, "go");
    const replaced = await ref.call("alice", "PUT", `/threads/${threadId}/goal`, {
      objective: "Ship v2",
    });
    expect(replaced.json).toMatchObject({ goal: { objective: "Ship v2", max_continuations: 8 } });

    const cleared = await ref.call("alice", "DELETE", `/threads/${threadId}/goal`);
    expect(cleared.json).toEqual({ goal: null });
    expect((await ref.call("alice", "GET", `/threads/${threadId}/goal`)).json).toEqual({
      goal: null,
    });
    const after = await ref.sdk.alice.threads.getState<{ goal: unknown }>(threadId);
    expect(after.values.goal).toBeNull();
    // Clearing twice, or a thread never created, is still `{goal: null}`.
    expect((await ref.call("alice", "DELETE", `/threads/${threadId}/goal`)).status).toBe(200);
    expect((await ref.call("alice", "DELETE", `/threads/${randomUUID()}/goal`)).json).toEqual({
      goal: null,
    });
  });

  it("refuses bad goals with a 422 naming the field and stores nothing", async () => {
    const threadId = randomUUID();
    const bad: unknown[] = [
      {},
      { objective: "" },
      { objective: "x".repeat(4001) },
      { objective: "ok", max_continuations: 9 },
      { objective: "ok", max_continuations: -1 },
    ];
    for (const body of bad) {
      const answer = await ref.call("alice", "PUT", `/threads/${threadId}/goal`, body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(answer.json).toMatchObject({ code: "validation_failed", detail: expect.any(String) });
    }
    const blank = await ref.call("alice", "PUT", `/threads/${threadId}/goal`, { objective: "   " });
    expect(blank.status).toBe(422);
    expect((blank.json as { detail: string }).detail).toMatch(/must not be empty/);
    expect((await ref.call("alice", "GET", `/threads/${threadId}`)).status).toBe(404);
  });

  it("keeps goals per user: another user's thread is 404 for every verb", async () => {
    const threadId = randomUUID();
    await ref.call("alice", "PUT", `/threads/${threadId}/goal`, { objective: "alice's goal" });
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { objective: "bob's goal" }],
      ["DELETE", undefined],
    ] as const) {
      const answer = await ref.call("bob", method, `/threads/${threadId}/goal`, body);
      expect(answer.status, method).toBe(404);
      expect(JSON.stringify(answer.json)).not.toContain("alice's goal");
    }
    expect((await ref.call("alice", "GET", `/threads/${threadId}/goal`)).json).toMatchObject({
      goal: { objective: "alice's goal" },
    });
  });
});
