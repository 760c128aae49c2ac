/**
 * `POST /api/threads/{id}/branches {message_id, message_ids, title?}` as the reference's branch
 * button sends it: the answer's shape; the branch is a new thread of the caller's whose state
 * ends with that turn (later turns are not in it), with the source's title and files when it
 * is the latest turn, its message pages seeded; the branch runs on its own; the source is
 * unchanged; a turn that cannot be branched from is 409; another user's thread is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/two-user-server.js";

const SCRIPT = [
  { match: "^question one", turns: [{ content: "Answer one." }] },
  {
    match: "^question two",
    turns: [
      {
        tool_calls: [
          {
            name: "write_file",
            args: { description: "d", path: "/mnt/user-data/outputs/two.md", content: "TWO\n" },
          },
        ],
      },
      { content: "Answer two." },
    ],
  },
  { turns: [{ content: "Later answer." }] },
];

interface Message {
  type: string;
  id: string;
}
interface Branch {
  thread_id: string;
  parent_thread_id: string;
  parent_checkpoint_id: string;
  branched_from_message_id: string;
  workspace_clone_mode: string;
  history_seed_mode: string;
}

let ref: ReferenceServer;
let source = "";
let messages: Message[] = [];

beforeAll(async () => {
  ref = await startReferenceServer(SCRIPT);
  source = (await ref.sdk.alice.threads.create()).thread_id;
  await ref.runToEnd("alice", source, "question one");
  await ref.runToEnd("alice", source, "question two");
  await ref.sdk.alice.threads.updateState(source, { values: { title: "Two questions" } });
  messages = await messagesOf(source);
});
afterAll(async () => {
  await ref?.close();
});

async function messagesOf(threadId: string): Promise<Message[]> {
  const state = await ref.sdk.alice.threads.getState<{ messages: Message[] }>(threadId);
  return state.values.messages;
}

const ids = (list: Message[]) => list.map((m) => m.id);
const file = (threadId: string) => `/threads/${threadId}/artifacts/mnt/user-data/outputs/two.md`;

describe("thread branches", () => {
  it("branches from the latest turn with its title, files and seeded message pages", async () => {
    expect(messages.map((m) => m.type)).toEqual(["human", "ai", "human", "ai", "tool", "ai"]);
    const turnAis = messages.slice(3).filter((m) => m.type === "ai");
    const last = turnAis.at(-1)?.id;
    const answer = await ref.call("alice", "POST", `/threads/${source}/branches`, {
      message_id: last,
      message_ids: ids(turnAis),
    });
    expect(answer.status).toBe(200);
    const branch = answer.json as Branch;
    expect(branch).toEqual({
      thread_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      parent_thread_id: source,
      parent_checkpoint_id: expect.any(String),
      branched_from_message_id: last,
      workspace_clone_mode: "current_thread_best_effort",
      history_seed_mode: "seeded",
    });
    const thread = await ref.sdk.alice.threads.get(branch.thread_id);
    expect(thread.metadata).toMatchObject({
      deerflow_branch: true,
      branch_parent_thread_id: source,
      branch_parent_checkpoint_id: branch.parent_checkpoint_id,
      branch_parent_message_id: last,
    });
    expect(ids(await messagesOf(branch.thread_id))).toEqual(ids(messages));
    const state = await ref.sdk.alice.threads.getState<{ title: string }>(branch.thread_id);
    expect(state.values.title).toBe("Two questions");
    expect((await ref.call("alice", "GET", file(branch.thread_id))).json).toBe("TWO\n");
    const page = await ref.call("alice", "GET", `/threads/${branch.thread_id}/messages/page`);
    expect(page.status).toBe(200);
    expect((page.json as { data: unknown[] }).data).toHaveLength(messages.length);
    // The sidebar finds it by its title.
    const found = await ref.call("alice", "POST", "/threads/search", {
      metadata: { branch_parent_thread_id: source },
      select: ["thread_id", "values"],
    });
    expect(found.json).toContainEqual({
      thread_id: branch.thread_id,
      values: { title: "Two questions" },
    });
  });

  it("branches from an earlier turn without the later turn or its files, and runs on", async () => {
    const first = messages[1]?.id;
    const answer = await ref.call("alice", "POST", `/threads/${source}/branches`, {
      message_id: first,
      message_ids: [first],
      title: "From the first answer",
    });
    expect(answer.status).toBe(200);
    const branch = answer.json as Branch;
    expect(branch.workspace_clone_mode).toBe("skipped_historical_turn");
    expect(ids(await messagesOf(branch.thread_id))).toEqual(ids(messages.slice(0, 2)));
    expect((await ref.call("alice", "GET", file(branch.thread_id))).status).toBe(404);
    const state = await ref.sdk.alice.threads.getState<{ title: string }>(branch.thread_id);
    expect(state.values.title).toBe("From the first answer");

    await ref.runToEnd("alice", branch.thread_id, "a new question");
    const after = await messagesOf(branch.thread_id);
    expect(after.map((m) => m.type)).toEqual(["human", "ai", "human", "ai"]);
    expect(ids(after.slice(0, 2))).toEqual(ids(messages.slice(0, 2)));
    // The source is as it was.
    expect(ids(await messagesOf(source))).toEqual(ids(messages));
  });

  it("refuses turns that cannot be branched from, bad bodies and another user", async () => {
    const url = `/threads/${source}/branches`;
    const human = await ref.call("alice", "POST", url, { message_id: messages[0]?.id });
    expect(human.status).toBe(409);
    expect(human.json).toMatchObject({ detail: "This turn can no longer be branched from." });
    expect((await ref.call("alice", "POST", url, { message_id: "no-such" })).status).toBe(409);
    expect((await ref.call("alice", "POST", url, {})).status).toBe(422);
    expect(
      (await ref.call("alice", "POST", url, { message_id: "x", title: "t".repeat(257) })).status,
    ).toBe(422);
    const foreign = await ref.call("bob", "POST", url, { message_id: messages[1]?.id });
    expect(foreign.status).toBe(404);
    expect((await ref.call("bob", "POST", "/threads/search", {})).json).toEqual([]);

    const sidecar = (await ref.sdk.alice.threads.create({ metadata: { deerflow_sidecar: true } }))
      .thread_id;
    await ref.runToEnd("alice", sidecar, "question one");
    const [, answerId] = ids(await messagesOf(sidecar));
    const refused = await ref.call("alice", "POST", `/threads/${sidecar}/branches`, {
      message_id: answerId,
    });
    expect(refused.status).toBe(409);
  });
});
