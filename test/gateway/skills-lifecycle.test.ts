/**
 * The skills lifecycle over plain HTTP under `auth.mode: local` with two users: a `.skill`
 * archive installed as the body or from a thread's outputs (the reference's `{thread_id, path}`),
 * every refusal a 4xx with a sentence and nothing installed, custom skills created, edited,
 * rolled back and deleted with their history, reload, and no user reading or writing another's.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FawnPaths } from "../../src/core/paths.js";
import {
  type BrowserSession,
  cookieHeaders,
  createApiToken,
  registerUser,
} from "../auth/helpers/http-session.js";
import { buildZip, skillMarkdown } from "../helpers/zip-archive.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

let root: string;
let h: GatewayHarness;
let alice: BrowserSession;
let bobToken = "";

type Who = "alice" | "bob";
/** A JSON answer as the tests read it: an error's `detail`, or any other field. */
type Answer = { detail: string } & Record<string, unknown>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "fawn-skill-life-"));
  const file = join(root, "public/alpha/SKILL.md");
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, skillMarkdown("alpha"));
  h = await startGatewayHarness({
    database: "sqlite",
    config: {
      skills: { path: root, install: { max_files: 20 } },
      auth: { mode: "local", allow_registration: true },
    },
  });
  alice = await registerUser(h.apiUrl, "alice@example.org", "alice password");
  const bob = await registerUser(h.apiUrl, "bob@example.org", "bob password 1");
  bobToken = await createApiToken(h.apiUrl, bob);
});

afterAll(async () => {
  await h?.close();
  await rm(root, { recursive: true, force: true });
});

function authOf(who: Who): Record<string, string> {
  return who === "alice" ? cookieHeaders(alice) : { authorization: `Bearer ${bobToken}` };
}

async function call(who: Who, method: string, path: string, body?: unknown) {
  const response = await fetch(`${h.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...authOf(who) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text === "" ? null : JSON.parse(text)) as Answer };
}

async function install(who: Who, archive: Buffer) {
  const response = await fetch(`${h.apiUrl}/skills/install`, {
    method: "POST",
    headers: { "content-type": "application/zip", ...authOf(who) },
    body: archive,
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

const names = async (who: Who) =>
  (
    (await call(who, "GET", "/skills")).json as unknown as { skills: { name: string }[] }
  ).skills.map((skill) => skill.name);

describe("skills lifecycle over HTTP with two users", () => {
  it("installs an archive as the body: the caller's custom, editable skill, seen by nobody else", async () => {
    const archive = await readFile(new URL("../fixtures/skills/csv-report.skill", import.meta.url));
    const installed = await install("alice", archive);
    expect(installed).toEqual({
      status: 200,
      json: {
        success: true,
        skill_name: "csv-report",
        message: "Skill 'csv-report' installed successfully",
      },
    });
    expect((await call("alice", "GET", "/skills/csv-report")).json).toEqual({
      name: "csv-report",
      description: "Turns a CSV file into a short Markdown report with a summary table.",
      license: "MIT",
      category: "custom",
      enabled: true,
      editable: true,
    });
    expect(await names("bob")).toEqual(["alpha"]);
    expect((await call("bob", "GET", "/skills/csv-report")).status).toBe(404);
    // Bob may install his own skill of the same name; Alice installing it again is a 409.
    expect((await install("bob", archive)).status).toBe(200);
    const again = await install("alice", archive);
    expect(again.status).toBe(409);
    expect(again.json.detail).toContain("already exists");
  });

  it("installs from a file in the caller's thread; another user's thread is 404", async () => {
    const thread = await call("alice", "POST", "/threads", {});
    const threadId = (thread.json as unknown as { thread_id: string }).thread_id;
    const me = await call("alice", "GET", "/auth/me");
    const userId = (me.json as unknown as { user: { id: string } }).user.id;
    const dir = new FawnPaths(h.fawn.config.home).threadPaths({ userId, threadId }).outputsDir;
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "notes.skill"),
      buildZip([{ name: "notes/SKILL.md", data: skillMarkdown("notes") }]),
    );
    const body = { thread_id: threadId, path: "mnt/user-data/outputs/notes.skill" };
    expect((await call("bob", "POST", "/skills/install", body)).status).toBe(404);
    const missing = await call("alice", "POST", "/skills/install", {
      ...body,
      path: "/mnt/user-data/outputs/x.skill",
    });
    expect(missing.status).toBe(404);
    expect(missing.json.detail).toContain("Skill file not found");
    const installed = await call("alice", "POST", "/skills/install", body);
    expect(installed).toMatchObject({ status: 200, json: { skill_name: "notes" } });
    expect(await names("alice")).toEqual(["alpha", "csv-report", "notes"]);
  });

  it("refuses every bad archive with a 4xx sentence and installs nothing", async () => {
    const before = await names("alice");
    const cases: Array<[string, Buffer, number]> = [
      ["not a zip", Buffer.from("plain text"), 400],
      [
        "traversal",
        buildZip([
          { name: "SKILL.md", data: skillMarkdown("t1") },
          { name: "../x", data: "x" },
        ]),
        400,
      ],
      [
        "symlink",
        buildZip([
          { name: "SKILL.md", data: skillMarkdown("t2") },
          { name: "l", data: "/etc", mode: 0o120777 },
        ]),
        400,
      ],
      ["no SKILL.md", buildZip([{ name: "README.md", data: "x" }]), 400],
      ["bad frontmatter", buildZip([{ name: "SKILL.md", data: "---\nname: x\n---\n" }]), 400],
      [
        "too many files",
        buildZip([
          { name: "SKILL.md", data: skillMarkdown("t3") },
          ...Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, data: "x" })),
        ]),
        413,
      ],
      [
        "zip bomb",
        buildZip([
          { name: "SKILL.md", data: skillMarkdown("t4") },
          { name: "z", data: Buffer.alloc(3 * 1024 * 1024) },
        ]),
        400,
      ],
    ];
    for (const [label, archive, status] of cases) {
      const answer = await install("alice", archive);
      expect({ label, status: answer.status }).toEqual({ label, status });
      expect(typeof answer.json.detail).toBe("string");
      expect(answer.json.detail.length).toBeGreaterThan(10);
    }
    const badJson = await call("alice", "POST", "/skills/install", { thread_id: "t", extra: 1 });
    expect(badJson.status).toBe(422);
    expect(await names("alice")).toEqual(before);
  });

  it("creates, edits, rolls back and deletes a custom skill with its history", async () => {
    const created = await call("alice", "POST", "/skills/custom", {
      content: skillMarkdown("poem", "v1"),
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: "poem",
      description: "v1",
      editable: true,
      category: "custom",
    });
    const edit = await call("alice", "PUT", "/skills/custom/poem", {
      content: skillMarkdown("poem", "v2"),
    });
    expect(edit.json).toMatchObject({ description: "v2", content: skillMarkdown("poem", "v2") });
    await call("alice", "PUT", "/skills/custom/poem", { content: skillMarkdown("poem", "v3") });

    const mismatch = await call("alice", "PUT", "/skills/custom/poem", {
      content: skillMarkdown("other"),
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.detail).toContain("must match");
    expect((await call("alice", "PUT", "/skills/custom/poem", { content: "nope" })).status).toBe(
      400,
    );
    expect(
      (await call("alice", "PUT", "/skills/custom/alpha", { content: skillMarkdown("alpha") })).json
        .detail,
    ).toContain("built-in");

    const history = await call("alice", "GET", "/skills/custom/poem/history");
    const entries = (history.json as unknown as { history: Array<Record<string, unknown>> })
      .history;
    expect(entries.map((entry) => [entry.version, entry.action])).toEqual([
      [1, "create"],
      [2, "human_edit"],
      [3, "human_edit"],
    ]);
    expect(entries[2]).toMatchObject({
      prev_content: skillMarkdown("poem", "v2"),
      file_path: "SKILL.md",
      author: "human",
    });

    const back = await call("alice", "POST", "/skills/custom/poem/rollback", {});
    expect(back.json).toMatchObject({ description: "v2" });
    const first = await call("alice", "POST", "/skills/custom/poem/rollback", { version: 1 });
    expect(first.json).toMatchObject({ description: "v1" });
    expect(
      (await call("alice", "POST", "/skills/custom/poem/rollback", { history_index: 99 })).json
        .detail,
    ).toBe("history_index is out of range");
    expect(
      (await call("alice", "POST", "/skills/custom/poem/rollback", { history_index: 0 })).status,
    ).toBe(400);
    const latest = (await call("alice", "GET", "/skills/custom/poem/history")).json as unknown as {
      history: Array<Record<string, unknown>>;
    };
    expect(latest.history.at(-1)).toMatchObject({
      version: 5,
      action: "rollback",
      rollback_from_version: 1,
    });

    // Bob sees none of it and can change none of it.
    for (const [method, path, body] of [
      ["GET", "/skills/custom/poem", undefined],
      ["PUT", "/skills/custom/poem", { content: skillMarkdown("poem", "bob") }],
      ["GET", "/skills/custom/poem/history", undefined],
      ["POST", "/skills/custom/poem/rollback", {}],
      ["DELETE", "/skills/custom/poem", undefined],
      ["PUT", "/skills/poem", { enabled: false }],
    ] as const) {
      expect({ method, path, status: (await call("bob", method, path, body)).status }).toEqual({
        method,
        path,
        status: 404,
      });
    }
    expect((await call("alice", "GET", "/skills/custom/poem")).json).toMatchObject({
      description: "v1",
      enabled: true,
    });

    const custom = (await call("alice", "GET", "/skills/custom")).json as unknown as {
      skills: { name: string }[];
    };
    expect(custom.skills.map((skill) => skill.name)).toEqual(["csv-report", "notes", "poem"]);
    expect((await call("alice", "DELETE", "/skills/custom/poem")).json).toEqual({ success: true });
    expect((await call("alice", "GET", "/skills/custom/poem")).status).toBe(404);
    expect((await call("alice", "DELETE", "/skills/custom/poem")).status).toBe(404);
    // A public skill is no custom skill: reading it here is a 404, deleting it a 400.
    expect((await call("alice", "GET", "/skills/custom/alpha")).status).toBe(404);
    expect((await call("alice", "GET", "/skills/custom/alpha/history")).status).toBe(404);
    expect((await call("alice", "DELETE", "/skills/custom/alpha")).status).toBe(400);
    for (const name of ["x".repeat(300), "..%2F..%2Fetc", "Upper"]) {
      expect((await call("alice", "GET", `/skills/custom/${name}`)).status).toBe(404);
      expect((await call("alice", "GET", `/skills/custom/${name}/history`)).status).toBe(404);
      expect((await call("alice", "PUT", `/skills/${name}`, { enabled: false })).status).toBe(404);
    }
  });

  it("switches a custom skill per user, and answers reload in the reference's shape", async () => {
    expect(
      (await call("alice", "PUT", "/skills/csv-report", { enabled: false })).json,
    ).toMatchObject({ enabled: false, editable: true });
    expect((await call("bob", "GET", "/skills/csv-report")).json).toMatchObject({ enabled: true });
    expect((await call("alice", "POST", "/skills/reload")).json).toMatchObject({
      success: true,
      scope: "process",
    });
    expect(
      (await call("alice", "POST", "/skills/custom", { content: skillMarkdown("csv-report") }))
        .status,
    ).toBe(409);
  });
});
