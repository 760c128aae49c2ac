/**
 * Memory is shared state: two real `fawn serve` processes over one PostgreSQL database (as in a
 * scaled-out deployment), under local auth. A fact added through one is listed by the other,
 * concurrent adds through both keep every fact, another user sees and changes none of them
 * through either process, and a forget through one is seen by the other.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryDocument } from "../../src/agent/memory/memory-document.js";
import { type BrowserSession, cookieHeaders, registerUser } from "../auth/helpers/http-session.js";
import { type ServeProcess, startFawnServe } from "../helpers/fawn-serve-process.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const postgres = await createPostgresTestDatabase("memory_two_processes");

let home = "";
let a: ServeProcess | undefined;
let b: ServeProcess | undefined;
let carol: BrowserSession | undefined;
let dave: BrowserSession | undefined;

beforeAll(async () => {
  if (postgres === null) return;
  home = await mkdtemp(join(tmpdir(), "fawn-memory-two-"));
  const configPath = join(home, "config.yaml");
  await writeFile(
    configPath,
    JSON.stringify({ auth: { mode: "local", allow_registration: true } }),
  );
  const env = { FAWN_DATABASE_URL: postgres.url, FAWN_CONFIG: configPath };
  [a, b] = await Promise.all([
    startFawnServe(join(home, "a"), env),
    startFawnServe(join(home, "b"), env),
  ]);
  carol = await registerUser(a.apiUrl, "carol@example.org", "carol password");
  dave = await registerUser(b.apiUrl, "dave@example.org", "dave password 1");
}, 60_000);

afterAll(async () => {
  for (const server of [a, b]) {
    if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
  }
  await postgres?.drop();
  if (home) await rm(home, { recursive: true, force: true });
});

async function call(
  server: ServeProcess | undefined,
  method: string,
  path: string,
  body?: unknown,
  who: BrowserSession | undefined = carol,
): Promise<{ status: number; json: unknown }> {
  if (!server || !who) throw new Error("servers not started");
  const response = await fetch(`${server.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...cookieHeaders(who) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

const contents = (memory: unknown) =>
  (memory as MemoryDocument).facts.map((fact) => fact.content).sort();

describe.skipIf(postgres === null)("memory across two fawn serve processes (PostgreSQL)", () => {
  it("a fact added through one is listed by the other", async () => {
    const added = await call(a, "POST", "/memory/facts", {
      content: "Prefers PostgreSQL",
      category: "preference",
      confidence: 0.9,
    });
    expect(added.status).toBe(200);
    const listed = await call(b, "GET", "/memory/facts");
    expect(listed.status).toBe(200);
    expect(contents(listed.json)).toEqual(["Prefers PostgreSQL"]);
    // The same content through the other process is a duplicate there too.
    expect(
      (await call(b, "POST", "/memory/facts", { content: "prefers  postgresql" })).status,
    ).toBe(409);
  });

  it("concurrent adds through both processes keep every fact", async () => {
    const adds = Array.from({ length: 12 }, (_, index) =>
      call(index % 2 === 0 ? a : b, "POST", "/memory/facts", {
        content: `Concurrent fact ${index}`,
        confidence: 0.8,
      }),
    );
    const results = await Promise.all(adds);
    expect(results.map((result) => result.status)).toEqual(results.map(() => 200));
    const expected = [
      "Prefers PostgreSQL",
      ...Array.from({ length: 12 }, (_, index) => `Concurrent fact ${index}`),
    ].sort();
    expect(contents((await call(a, "GET", "/memory")).json)).toEqual(expected);
    expect(contents((await call(b, "GET", "/memory")).json)).toEqual(expected);
  });

  it("another user sees and changes none of them, through either process", async () => {
    const carols = (await call(a, "GET", "/memory")).json as MemoryDocument;
    const someId = carols.facts[0]?.id ?? "";
    for (const server of [a, b]) {
      expect((await call(server, "GET", "/memory/facts", undefined, dave)).json).toEqual({
        facts: [],
      });
      expect(
        (await call(server, "DELETE", `/memory/facts/${someId}`, undefined, dave)).status,
      ).toBe(404);
      expect(
        (await call(server, "PATCH", `/memory/facts/${someId}`, { confidence: 0 }, dave)).status,
      ).toBe(404);
    }
    expect((await call(b, "DELETE", "/memory", undefined, dave)).status).toBe(200);
    expect((await call(b, "GET", "/memory")).json).toEqual(carols);
  });

  it("a forget through one process is what the other reads", async () => {
    const before = (await call(b, "GET", "/memory")).json as MemoryDocument;
    const cleared = await call(a, "DELETE", "/memory");
    expect(cleared.status).toBe(200);
    const after = (await call(b, "GET", "/memory")).json as MemoryDocument;
    expect(after.facts).toEqual([]);
    expect(after.revision).toBeGreaterThan(before.revision);
  });
});
