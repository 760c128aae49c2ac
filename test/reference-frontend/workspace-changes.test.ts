/**
 * `GET /api/threads/{id}/runs/{run_id}/workspace-changes?include_files&include_diff` as the
 * reference's change badge and diff panel call it: the files a run created or changed in the
 * workspace and outputs, with diffs, in the reference's shape; failed edits left out; sensitive
 * files without a diff; a run that changed nothing is `available: false`; another user's run 404.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./helpers/two-user-server.js";

const write = (path: string, content: string) => ({
  name: "write_file",
  args: { description: "d", path, content },
});
const SCRIPT = [
  {
    match: "^make files",
    turns: [
      {
        tool_calls: [
          write("/mnt/user-data/outputs/report.md", "# Report\nline a\nline b\n"),
          write("/mnt/user-data/workspace/notes.txt", "scratch\n"),
          write("/mnt/user-data/outputs/.env", "API_KEY=hidden\n"),
        ],
      },
      {
        tool_calls: [
          {
            name: "str_replace",
            args: {
              description: "d",
              path: "/mnt/user-data/outputs/report.md",
              old_str: "line b",
              new_str: "line B\nline c",
            },
          },
          {
            name: "str_replace",
            args: {
              description: "d",
              path: "/mnt/user-data/workspace/notes.txt",
              old_str: "not there",
              new_str: "x",
            },
          },
        ],
      },
      { content: "Files made." },
    ],
  },
  { turns: [{ content: "Nothing to change." }] },
];

interface Report {
  available: boolean;
  version: number;
  summary: Record<string, unknown>;
  files: Array<Record<string, unknown>>;
  limits: Record<string, unknown>;
}

let ref: ReferenceServer;
let threadId = "";
let runId = "";

beforeAll(async () => {
  ref = await startReferenceServer(SCRIPT);
  threadId = (await ref.sdk.alice.threads.create()).thread_id;
  runId = await ref.runToEnd("alice", threadId, "make files");
});
afterAll(async () => {
  await ref?.close();
});

const url = (run: string, query = "") =>
  `/threads/${threadId}/runs/${run}/workspace-changes${query}`;

describe("workspace changes of a run", () => {
  it("lists created and edited files with diffs, in the reference's shape", async () => {
    const answer = await ref.call(
      "alice",
      "GET",
      url(runId, "?include_files=true&include_diff=true"),
    );
    expect(answer.status).toBe(200);
    const report = answer.json as Report;
    expect(report).toMatchObject({
      available: true,
      version: 1,
      summary: {
        created: 3,
        modified: 0,
        deleted: 0,
        symlink_created: 0,
        additions: 6,
        deletions: 1,
        truncated: false,
      },
      limits: { max_files: 200, max_file_bytes_for_diff: 262144 },
    });
    expect(report.files.map((f) => f.path)).toEqual([
      "/mnt/user-data/outputs/.env",
      "/mnt/user-data/outputs/report.md",
      "/mnt/user-data/workspace/notes.txt",
    ]);
    const [env, reportFile, notes] = report.files;
    const final = "# Report\nline a\nline B\nline c\n";
    expect(reportFile).toEqual({
      path: "/mnt/user-data/outputs/report.md",
      root: "outputs",
      status: "created",
      binary: false,
      sensitive: false,
      size_before: null,
      size_after: final.length,
      sha256_before: null,
      sha256_after: createHash("sha256").update(final).digest("hex"),
      diff: [
        "--- /dev/null",
        "+++ b/mnt/user-data/outputs/report.md",
        "@@ -0,0 +1,3 @@",
        "+# Report",
        "+line a",
        "+line b",
        "@@ -1 +2 @@",
        "-line b",
        "+line B",
        "+line c",
        "",
      ].join("\n"),
      diff_truncated: false,
      diff_unavailable_reason: null,
      additions: 5,
      deletions: 1,
      symlink: false,
      symlink_target_before: null,
      symlink_target_after: null,
    });
    // The failed str_replace on notes.txt is not a change; the file's write is.
    expect(notes).toMatchObject({
      root: "workspace",
      status: "created",
      additions: 1,
      deletions: 0,
    });
    expect(env).toMatchObject({
      sensitive: true,
      diff: "",
      diff_unavailable_reason: "sensitive",
      sha256_after: null,
      additions: 0,
    });
  });

  it("leaves out diffs or files when asked", async () => {
    const noDiff = (await ref.call("alice", "GET", url(runId, "?include_diff=false")))
      .json as Report;
    expect(noDiff.files).toHaveLength(3);
    expect(noDiff.files.every((f) => f.diff === "")).toBe(true);
    expect(noDiff.summary.additions).toBe(6);
    const noFiles = (await ref.call("alice", "GET", url(runId, "?include_files=false")))
      .json as Report;
    expect(noFiles).toMatchObject({ available: true, files: [] });
    expect((await ref.call("alice", "GET", url(runId, "?include_files=maybe"))).status).toBe(422);
  });

  it("answers available: false for a run that changed nothing, 404 for another user", async () => {
    const quiet = await ref.runToEnd("alice", threadId, "just talk");
    expect((await ref.call("alice", "GET", url(quiet))).json).toEqual({
      available: false,
      version: 1,
      summary: {
        created: 0,
        modified: 0,
        deleted: 0,
        symlink_created: 0,
        additions: 0,
        deletions: 0,
        truncated: false,
      },
      files: [],
      limits: expect.any(Object),
    });
    const foreign = await ref.call("bob", "GET", url(runId));
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.json)).not.toContain("report.md");
    expect((await ref.call("alice", "GET", url("no-such-run"))).status).toBe(404);
  });
});
