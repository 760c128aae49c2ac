/**
 * Uploads for a thread that does not exist yet, as the reference's new chat sends them: the
 * limits and the list answer, the upload lands in the caller's own folder for that id, and the
 * file is there for the thread's first run (the agent reads it). Another user's existing thread
 * stays a 404, and an id one user used first does not show that user's files to another.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/two-user-server.js";

const SCRIPT = [
  {
    match: "^read the attachment",
    turns: [
      {
        tool_calls: [
          {
            name: "read_file",
            args: { description: "read", path: "/mnt/user-data/uploads/brief.txt" },
          },
        ],
      },
      { content: "Read it." },
    ],
  },
  { turns: [{ content: "Ok." }] },
];

let ref: ReferenceServer;

beforeAll(async () => {
  ref = await startReferenceServer(SCRIPT, {
    uploads: { max_files: 4, max_file_size: 1024, max_total_size: 2048 },
  });
});
afterAll(async () => {
  await ref?.close();
});

function upload(who: "alice" | "bob", threadId: string, name: string, content: string) {
  const data = new FormData();
  data.append("files", new Blob([content]), name);
  return fetch(`${ref.server.apiUrl}/threads/${threadId}/uploads`, {
    method: "POST",
    headers: ref.auth(who),
    body: data,
  });
}

describe("uploads before the thread exists", () => {
  it("answers limits and list, stores the file, and the first run reads it", async () => {
    const threadId = randomUUID();
    expect((await ref.call("alice", "GET", `/threads/${threadId}/uploads/limits`)).json).toEqual({
      max_files: 4,
      max_file_size: 1024,
      max_total_size: 2048,
    });
    expect((await ref.call("alice", "GET", `/threads/${threadId}/uploads/list`)).json).toEqual({
      files: [],
      count: 0,
    });
    const sent = await upload("alice", threadId, "brief.txt", "BRIEF-CONTENT-42");
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({
      success: true,
      files: [
        {
          filename: "brief.txt",
          size: 16,
          virtual_path: "/mnt/user-data/uploads/brief.txt",
          artifact_url: `/api/threads/${threadId}/artifacts/mnt/user-data/uploads/brief.txt`,
        },
      ],
    });
    // Limits still apply to a thread that does not exist.
    expect((await upload("alice", threadId, "big.txt", "x".repeat(1025))).status).toBe(413);
    // No thread was created by the upload.
    expect((await ref.call("alice", "GET", `/threads/${threadId}`)).status).toBe(404);

    // The SDK creates the thread with the client's id, then the first run reads the file.
    await ref.sdk.alice.threads.create({ threadId });
    await ref.runToEnd("alice", threadId, "read the attachment");
    const state = await ref.sdk.alice.threads.getState<{
      messages: Array<{ type: string; content: unknown }>;
    }>(threadId);
    const toolResult = state.values.messages.find((m) => m.type === "tool");
    expect(JSON.stringify(toolResult?.content)).toContain("BRIEF-CONTENT-42");
    const listed = await ref.call("alice", "GET", `/threads/${threadId}/uploads/list`);
    expect(listed.json).toMatchObject({ count: 1, files: [{ filename: "brief.txt" }] });
  });

  it("keeps one user's early uploads out of another user's view", async () => {
    const unclaimed = randomUUID();
    expect((await upload("alice", unclaimed, "secret.txt", "ALICE-SECRET")).status).toBe(200);
    // Bob using the same id sees his own (empty) folder, never alice's file.
    const bobList = await ref.call("bob", "GET", `/threads/${unclaimed}/uploads/list`);
    expect(bobList.json).toEqual({ files: [], count: 0 });
    const bobDelete = await ref.call("bob", "DELETE", `/threads/${unclaimed}/uploads/secret.txt`);
    expect(bobDelete.status).toBe(404);

    // Once alice's thread exists, bob gets 404 on every upload route of it.
    const owned = (await ref.sdk.alice.threads.create()).thread_id;
    for (const answer of [
      await upload("bob", owned, "x.txt", "x"),
      await fetch(`${ref.server.apiUrl}/threads/${owned}/uploads/limits`, {
        headers: ref.auth("bob"),
      }),
      await fetch(`${ref.server.apiUrl}/threads/${owned}/uploads/list`, {
        headers: ref.auth("bob"),
      }),
    ]) {
      expect(answer.status).toBe(404);
    }
    expect(
      (await ref.call("alice", "GET", `/threads/${unclaimed}/uploads/list`)).json,
    ).toMatchObject({ count: 1, files: [{ filename: "secret.txt" }] });
  });
});
