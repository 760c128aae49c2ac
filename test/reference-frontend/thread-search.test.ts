/**
 * `POST /threads/search` as the reference's sidebar sends it (`select: ["thread_id",
 * "updated_at", "values", "metadata"]`, `sortBy: updated_at`): `values` is the title alone, not
 * the whole state; threads pinned with `metadata.deerflow_pinned` come first, across pages; a
 * user's search lists only their own threads.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/two-user-server.js";

const SIDEBAR = {
  limit: 50,
  sort_by: "updated_at",
  sort_order: "desc",
  select: ["thread_id", "updated_at", "values", "metadata"],
};

let ref: ReferenceServer;

beforeAll(async () => {
  ref = await startReferenceServer([{ turns: [{ content: "A long answer. ".repeat(20) }] }]);
});
afterAll(async () => {
  await ref?.close();
});

async function search(who: "alice" | "bob", body: Record<string, unknown>) {
  const answer = await ref.call(who, "POST", "/threads/search", body);
  expect(answer.status).toBe(200);
  return answer.json as Array<{ thread_id: string; values: unknown; metadata: unknown }>;
}

describe("thread search for the reference's sidebar", () => {
  it("answers the title as values, pinned threads first on every page", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const id = (await ref.sdk.alice.threads.create({ metadata: { batch: "s1" } })).thread_id;
      await ref.runToEnd("alice", id, `question ${i}`);
      await ref.sdk.alice.threads.updateState(id, { values: { title: `Chat ${i}` } });
      ids.push(id);
    }
    const [first, second] = ids;
    // Pin the two oldest: the reference UI patches only this key.
    for (const id of [first, second]) {
      const patched = await ref.call("alice", "PATCH", `/threads/${id}`, {
        metadata: { deerflow_pinned: true },
      });
      expect(patched.status).toBe(200);
    }
    const found = await search("alice", { ...SIDEBAR, metadata: { batch: "s1" } });
    expect(
      found
        .map((t) => t.thread_id)
        .slice(0, 2)
        .sort(),
    ).toEqual([first, second].sort());
    expect(new Set(found.map((t) => t.thread_id))).toEqual(new Set(ids));
    for (const thread of found) {
      expect(Object.keys(thread).sort()).toEqual(["metadata", "thread_id", "updated_at", "values"]);
      // The title only: no messages, artifacts or other channels.
      expect(thread.values).toEqual({ title: expect.stringMatching(/^Chat \d$/) });
    }

    // Pages cut the pinned-first order, not each page on its own.
    const pageOne = await search("alice", { ...SIDEBAR, metadata: { batch: "s1" }, limit: 1 });
    const pageTwo = await search("alice", {
      ...SIDEBAR,
      metadata: { batch: "s1" },
      limit: 2,
      offset: 1,
    });
    expect([...pageOne, ...pageTwo].map((t) => t.thread_id)).toEqual(
      found.slice(0, 3).map((t) => t.thread_id),
    );

    // Unpinning moves it back among the others.
    await ref.call("alice", "PATCH", `/threads/${first}`, { metadata: { deerflow_pinned: false } });
    const after = await search("alice", { ...SIDEBAR, metadata: { batch: "s1" } });
    expect(after[0]?.thread_id).toBe(second);
  });

  it("finds by ids with pinned first too, and never another user's threads", async () => {
    const mine = (await ref.sdk.alice.threads.create({ metadata: { batch: "s2" } })).thread_id;
    const pinned = (
      await ref.sdk.alice.threads.create({ metadata: { batch: "s2", deerflow_pinned: true } })
    ).thread_id;
    const byIds = await search("alice", { ids: [mine, pinned], select: ["thread_id"] });
    expect(byIds.map((t) => t.thread_id)).toEqual([pinned, mine]);

    const bobs = await search("bob", { ...SIDEBAR, metadata: { batch: "s2" } });
    expect(bobs).toEqual([]);
    expect(await search("bob", { ids: [mine, pinned] })).toEqual([]);
  });
});
