/**
 * Skill state is shared state: two real `fawn serve` processes over one PostgreSQL database, each
 * with its own FAWN_HOME (nothing shared on disk), see the same switches and custom skills — a
 * skill switched off on one is off on the other, one installed or edited on one is listed and
 * served by the other, one deleted on one is gone on both.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, startFawnServe } from "../helpers/fawn-serve-process.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { buildZip, skillMarkdown } from "../helpers/zip-archive.js";

const postgres = await createPostgresTestDatabase("skills_two_processes");

let home: string;
let a: ServeProcess | undefined;
let b: ServeProcess | undefined;

beforeAll(async () => {
  if (postgres === null) return;
  home = await mkdtemp(join(tmpdir(), "fawn-skills-two-"));
  const env = { FAWN_DATABASE_URL: postgres.url };
  [a, b] = await Promise.all([
    startFawnServe(join(home, "a"), env),
    startFawnServe(join(home, "b"), env),
  ]);
}, 60_000);

afterAll(async () => {
  for (const server of [a, b]) {
    if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
  }
  await postgres?.drop();
  if (home) await rm(home, { recursive: true, force: true });
});

type Answer = { detail?: string } & Record<string, unknown>;

async function call(
  server: ServeProcess | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  if (!server) throw new Error("servers not started");
  const response = await fetch(`${server.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text === "" ? null : JSON.parse(text)) as Answer };
}

async function skillsOf(server: ServeProcess | undefined): Promise<Record<string, boolean>> {
  const listed = (await call(server, "GET", "/skills")).json as unknown as {
    skills: { name: string; enabled: boolean }[];
  };
  return Object.fromEntries(listed.skills.map((skill) => [skill.name, skill.enabled]));
}

describe.skipIf(postgres === null)("skills across two fawn serve processes (PostgreSQL)", () => {
  it("a switch, an install, an edit and a delete on one are seen on the other", async () => {
    const [publicSkill] = Object.keys(await skillsOf(a));
    if (!publicSkill) throw new Error("no public skill shipped");
    expect((await call(a, "PUT", `/skills/${publicSkill}`, { enabled: false })).status).toBe(200);
    expect((await skillsOf(b))[publicSkill]).toBe(false);

    if (!a) throw new Error("servers not started");
    const installed = await fetch(`${a.apiUrl}/skills/install`, {
      method: "POST",
      headers: { "content-type": "application/zip" },
      body: buildZip([
        { name: "shared-tool/SKILL.md", data: skillMarkdown("shared-tool", "From A.") },
        { name: "shared-tool/scripts/go.sh", data: "#!/bin/sh\n", mode: 0o100755 },
      ]),
    });
    expect(installed.status).toBe(200);
    expect((await call(b, "GET", "/skills/shared-tool")).json).toMatchObject({
      description: "From A.",
      category: "custom",
      editable: true,
      enabled: true,
    });
    expect(
      (await call(b, "POST", "/skills/custom", { content: skillMarkdown("shared-tool") })).status,
    ).toBe(409);

    const edited = await call(b, "PUT", "/skills/custom/shared-tool", {
      content: skillMarkdown("shared-tool", "Edited on B."),
    });
    expect(edited.status).toBe(200);
    expect((await call(a, "GET", "/skills/custom/shared-tool")).json).toMatchObject({
      description: "Edited on B.",
    });
    const history = (await call(a, "GET", "/skills/custom/shared-tool/history"))
      .json as unknown as {
      history: { action: string }[];
    };
    expect(history.history.map((entry) => entry.action)).toEqual(["install", "human_edit"]);

    expect((await call(a, "DELETE", "/skills/custom/shared-tool")).status).toBe(200);
    expect((await call(b, "GET", "/skills/shared-tool")).status).toBe(404);
    expect((await call(b, "PUT", `/skills/${publicSkill}`, { enabled: true })).status).toBe(200);
    expect((await skillsOf(a))[publicSkill]).toBe(true);
  });
});
