/**
 * `POST /api/threads/{id}/runs/regenerate/prepare` and `…/edit-regenerate/prepare`, then the run
 * the reference's UI makes from their answer (`runs.stream` with `input`, `checkpoint`,
 * `metadata`), through the unmodified SDK: the answer's shape; the rerun forks the thread at
 * the checkpoint so the replaced turn is gone (first turns too); 409 for a turn that cannot be
 * replayed; another user's thread is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/two-user-server.js";

interface Message {
  type: string;
  id: string;
  content: unknown;
}
interface Plan {
  input: { messages: Array<{ id?: string; content: unknown }>; title?: string };
  checkpoint: {
    checkpoint_ns: string;
    checkpoint_id: string;
    checkpoint_map: Record<string, unknown> | null;
  };
  metadata: Record<string, unknown>;
  target_run_id: string;
  replacement_human_message_id?: string;
  source_message_ids?: string[];
}

let ref: ReferenceServer;

beforeAll(async () => {
  ref = await startReferenceServer([{ turns: [{ content: "An answer." }] }]);
});
afterAll(async () => {
  await ref?.close();
});

async function messagesOf(threadId: string): Promise<Message[]> {
  const state = await ref.sdk.alice.threads.getState<{ messages: Message[] }>(threadId);
  return state.values.messages;
}

function text(message: Message | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part) => part.text ?? "").join("") : "";
}

/** The run the reference's UI starts from a prepare answer. */
async function rerun(threadId: string, plan: Plan): Promise<string> {
  const run = await ref.sdk.alice.runs.create(threadId, "lead_agent", {
    input: plan.input,
    checkpoint: plan.checkpoint,
    metadata: plan.metadata,
    config: { configurable: { model_name: "scripted" } },
  });
  await ref.sdk.alice.runs.join(threadId, run.run_id);
  return run.run_id;
}

async function twoTurns(): Promise<{ threadId: string; runs: string[]; messages: Message[] }> {
  const threadId = (await ref.sdk.alice.threads.create()).thread_id;
  const runs = [
    await ref.runToEnd("alice", threadId, "question one"),
    await ref.runToEnd("alice", threadId, "question two"),
  ];
  return { threadId, runs, messages: await messagesOf(threadId) };
}

describe("regenerate", () => {
  it("prepares the latest answer's replay, and the rerun replaces that turn only", async () => {
    const { threadId, runs, messages } = await twoTurns();
    expect(messages.map((m) => m.type)).toEqual(["human", "ai", "human", "ai"]);
    const [h1, a1, h2, a2] = messages;
    const prepared = await ref.call(
      "alice",
      "POST",
      `/threads/${threadId}/runs/regenerate/prepare`,
      {
        message_id: a2?.id,
      },
    );
    expect(prepared.status).toBe(200);
    const plan = prepared.json as Plan;
    expect(plan).toEqual({
      input: {
        messages: [
          {
            type: "human",
            id: h2?.id,
            // Fawn names the user's messages; the name travels with the replay.
            name: "user-input",
            content: [{ type: "text", text: "question two" }],
            additional_kwargs: expect.any(Object),
          },
        ],
      },
      checkpoint: { checkpoint_ns: "", checkpoint_id: expect.any(String), checkpoint_map: null },
      metadata: {
        regenerate_from_message_id: a2?.id,
        regenerate_from_run_id: runs[1],
        regenerate_checkpoint_id: plan.checkpoint.checkpoint_id,
      },
      target_run_id: runs[1],
    });
    // The checkpoint is the thread at rest after the first turn.
    const base = await ref.sdk.alice.threads.getState<{ messages: Message[] }>(
      threadId,
      plan.checkpoint.checkpoint_id,
    );
    expect(base.values.messages.map((m) => m.id)).toEqual([h1?.id, a1?.id]);

    await rerun(threadId, plan);
    const after = await messagesOf(threadId);
    expect(after.map((m) => m.type)).toEqual(["human", "ai", "human", "ai"]);
    expect(after.slice(0, 2).map((m) => m.id)).toEqual([h1?.id, a1?.id]);
    expect(text(after[2])).toBe("question two");
    expect(after[3]?.id).not.toBe(a2?.id);
  });

  it("replays a first turn from the thread before it", async () => {
    const threadId = (await ref.sdk.alice.threads.create()).thread_id;
    await ref.runToEnd("alice", threadId, "only question");
    const [, answer] = await messagesOf(threadId);
    const prepared = await ref.call(
      "alice",
      "POST",
      `/threads/${threadId}/runs/regenerate/prepare`,
      {
        message_id: answer?.id,
      },
    );
    expect(prepared.status).toBe(200);
    await rerun(threadId, prepared.json as Plan);
    const after = await messagesOf(threadId);
    expect(after.map((m) => [m.type, text(m)])).toEqual([
      ["human", "only question"],
      ["ai", "An answer."],
    ]);
    expect(after[1]?.id).not.toBe(answer?.id);
  });

  it("refuses what cannot be regenerated, and another user's thread", async () => {
    const { threadId, messages } = await twoTurns();
    const [h1, a1, , a2] = messages;
    const url = `/threads/${threadId}/runs/regenerate/prepare`;
    const earlier = await ref.call("alice", "POST", url, { message_id: a1?.id });
    expect(earlier.status).toBe(409);
    expect(earlier.json).toMatchObject({
      detail: "Only the latest assistant message can be regenerated",
    });
    expect((await ref.call("alice", "POST", url, { message_id: h1?.id })).status).toBe(409);
    expect((await ref.call("alice", "POST", url, { message_id: "no-such" })).status).toBe(404);
    expect((await ref.call("alice", "POST", url, {})).status).toBe(422);
    const foreign = await ref.call("bob", "POST", url, { message_id: a2?.id });
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.json)).not.toContain("question");
    const empty = (await ref.sdk.alice.threads.create()).thread_id;
    expect(
      (
        await ref.call("alice", "POST", `/threads/${empty}/runs/regenerate/prepare`, {
          message_id: "x",
        })
      ).status,
    ).toBe(404);
  });
});

describe("edit and regenerate", () => {
  it("prepares the edited user message's replay; the rerun carries the new text", async () => {
    const { threadId, runs, messages } = await twoTurns();
    const [h1, a1, h2, a2] = messages;
    const prepared = await ref.call(
      "alice",
      "POST",
      `/threads/${threadId}/runs/edit-regenerate/prepare`,
      { human_message_id: h2?.id, replacement_text: "  question two, edited " },
    );
    expect(prepared.status).toBe(200);
    const plan = prepared.json as Plan;
    const replacementId = plan.replacement_human_message_id;
    expect(plan).toMatchObject({
      input: {
        messages: [
          {
            type: "human",
            id: replacementId,
            content: [{ type: "text", text: "question two, edited" }],
            additional_kwargs: {},
          },
        ],
      },
      metadata: {
        replay_kind: "edit",
        regenerate_from_message_id: a2?.id,
        regenerate_from_run_id: runs[1],
        regenerate_checkpoint_id: plan.checkpoint.checkpoint_id,
        edit_from_message_id: h2?.id,
        edit_message_id: replacementId,
        edit_version_group_id: h2?.id,
      },
      target_run_id: runs[1],
      source_message_ids: [h2?.id, a2?.id],
    });
    expect(replacementId).toMatch(/^[0-9a-f-]{36}$/);

    await rerun(threadId, plan);
    const after = await messagesOf(threadId);
    expect(after.map((m) => m.id).slice(0, 3)).toEqual([h1?.id, a1?.id, replacementId]);
    expect(text(after[2])).toBe("question two, edited");
    expect(after).toHaveLength(4);
  });

  it("refuses an unchanged, empty or earlier message, an active goal, and another user", async () => {
    const { threadId, messages } = await twoTurns();
    const [h1, , h2] = messages;
    const url = `/threads/${threadId}/runs/edit-regenerate/prepare`;
    const cases: Array<[unknown, number, RegExp]> = [
      [{ human_message_id: h2?.id, replacement_text: "question two" }, 409, /unchanged/],
      [{ human_message_id: h2?.id, replacement_text: "   " }, 409, /cannot be empty/],
      [{ human_message_id: h1?.id, replacement_text: "new" }, 409, /latest completed user turn/],
      [{ human_message_id: h2?.id }, 422, /replacement_text/],
    ];
    for (const [body, status, detail] of cases) {
      const answer = await ref.call("alice", "POST", url, body);
      expect(answer.status).toBe(status);
      expect((answer.json as { detail: string }).detail).toMatch(detail);
    }
    const body = { human_message_id: h2?.id, replacement_text: "changed" };
    expect((await ref.call("bob", "POST", url, body)).status).toBe(404);
    await ref.call("alice", "PUT", `/threads/${threadId}/goal`, { objective: "finish" });
    const withGoal = await ref.call("alice", "POST", url, body);
    expect(withGoal.status).toBe(409);
    expect(withGoal.json).toMatchObject({ detail: "Cannot edit while a goal is active" });
  });
});
