/**
 * `PUT /api/threads/{id}/artifacts/{path}` with `{content, expected_sha256}`, the reference's
 * artifacts-panel save: the GET's ETag is the sha256 to send back; a save answers `{path, sha256,
 * size}` and replaces the file whole; a file changed since it was opened is a 412 carrying the
 * current hash and is never overwritten (also when two saves race); a run in flight is a 409;
 * only outputs, UTF-8 text, bounded size; another user's thread is 404.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/two-user-server.js";

const SCRIPT = [
  {
    match: "^write",
    turns: [
      {
        tool_calls: [
          {
            name: "write_file",
            args: {
              description: "notes",
              path: "/mnt/user-data/outputs/notes.md",
              content: "# Notes\nfirst\n",
            },
          },
        ],
      },
      { content: "Written." },
    ],
  },
  { match: "^hang", hang: true },
  { turns: [{ content: "Ok." }] },
];

const FILE = "mnt/user-data/outputs/notes.md";
let ref: ReferenceServer;
let threadId = "";

function sha(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

beforeAll(async () => {
  ref = await startReferenceServer(SCRIPT);
  threadId = (await ref.sdk.alice.threads.create()).thread_id;
  await ref.runToEnd("alice", threadId, "write the notes");
});
afterAll(async () => {
  await ref?.close();
});

const url = () => `/threads/${threadId}/artifacts/${FILE}`;

describe("artifact save", () => {
  it("saves with the hash the GET's ETag gave, answering the reference's shape", async () => {
    const opened = await ref.call("alice", "GET", url());
    expect(opened.status).toBe(200);
    expect(opened.json).toBe("# Notes\nfirst\n");
    expect(opened.headers.get("etag")).toBe(`"${sha("# Notes\nfirst\n")}"`);

    const saved = await ref.call("alice", "PUT", url(), {
      content: "# Notes\nedited ✓\n",
      expected_sha256: sha("# Notes\nfirst\n"),
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toEqual({
      path: `/${FILE}`,
      sha256: sha("# Notes\nedited ✓\n"),
      size: Buffer.byteLength("# Notes\nedited ✓\n"),
    });
    expect((await ref.call("alice", "GET", url())).json).toBe("# Notes\nedited ✓\n");
  });

  it("refuses a save over a changed file with 412 and the current hash, writing nothing", async () => {
    const current = (await ref.call("alice", "GET", url())).json as string;
    const stale = await ref.call("alice", "PUT", url(), {
      content: "lost update",
      expected_sha256: sha("something older"),
    });
    expect(stale.status).toBe(412);
    expect(stale.json).toMatchObject({
      code: "conflict",
      detail: expect.stringMatching(/changed since it was opened/),
      current_sha256: sha(current),
    });
    expect((await ref.call("alice", "GET", url())).json).toBe(current);
  });

  it("lets one of two racing saves from the same version win; the other is refused", async () => {
    const base = (await ref.call("alice", "GET", url())).json as string;
    const [a, b] = await Promise.all(
      ["version A", "version B"].map((content) =>
        ref.call("alice", "PUT", url(), { content, expected_sha256: sha(base) }),
      ),
    );
    const statuses = [a?.status, b?.status].sort();
    expect(statuses[0]).toBe(200);
    expect([409, 412]).toContain(statuses[1]);
    const winner = a?.status === 200 ? "version A" : "version B";
    expect((await ref.call("alice", "GET", url())).json).toBe(winner);
  });

  it("refuses paths outside outputs, binary or oversized content and bad hashes", async () => {
    const current = (await ref.call("alice", "GET", url())).json as string;
    const expected_sha256 = sha(current);
    const cases: Array<[string, unknown, number]> = [
      [
        `/threads/${threadId}/artifacts/mnt/user-data/uploads/x.txt`,
        { content: "x", expected_sha256 },
        400,
      ],
      [
        `/threads/${threadId}/artifacts/mnt/user-data/outputs/a.skill`,
        { content: "x", expected_sha256 },
        415,
      ],
      // `..` is resolved before the route sees it: this is a path outside outputs.
      [
        `/threads/${threadId}/artifacts/mnt/user-data/outputs/%2e%2e/%2e%2e/x`,
        { content: "x", expected_sha256 },
        400,
      ],
      [
        `/threads/${threadId}/artifacts/mnt/user-data/outputs/missing.md`,
        { content: "x", expected_sha256 },
        404,
      ],
      [url(), { content: "a\u0000b", expected_sha256 }, 415],
      [url(), { content: "x".repeat(2 * 1024 * 1024 + 1), expected_sha256 }, 422],
      [url(), { content: "é".repeat(1024 * 1024 + 1), expected_sha256 }, 413],
      [url(), { content: "x", expected_sha256: "ABC" }, 422],
      [url(), { content: "x" }, 422],
    ];
    for (const [path, body, status] of cases) {
      const answer = await ref.call("alice", "PUT", path, body);
      expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 40)}`).toBe(status);
      expect(answer.json).toMatchObject({ detail: expect.any(String), code: expect.any(String) });
    }
    expect((await ref.call("alice", "GET", url())).json).toBe(current);
  });

  it("is a 409 while a run is in flight on the thread", async () => {
    const current = (await ref.call("alice", "GET", url())).json as string;
    const run = await ref.sdk.alice.runs.create(threadId, "lead_agent", {
      input: { messages: [{ type: "human", content: "hang here" }] },
      config: { configurable: { model_name: "scripted" } },
    });
    try {
      const busy = await ref.call("alice", "PUT", url(), {
        content: "during the run",
        expected_sha256: sha(current),
      });
      expect(busy.status).toBe(409);
      expect(busy.json).toMatchObject({ code: "conflict" });
    } finally {
      await ref.sdk.alice.runs.cancel(threadId, run.run_id, true);
    }
    expect((await ref.call("alice", "GET", url())).json).toBe(current);
  });

  it("never lets another user read or save the file", async () => {
    const current = (await ref.call("alice", "GET", url())).json as string;
    const read = await ref.call("bob", "GET", url());
    const save = await ref.call("bob", "PUT", url(), {
      content: "bob was here",
      expected_sha256: sha(current),
    });
    expect([read.status, save.status]).toEqual([404, 404]);
    expect((await ref.call("alice", "GET", url())).json).toBe(current);
  });
});
