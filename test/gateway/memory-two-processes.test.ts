/**
 * Memory is shared state: two real `fawn serve` processes over one PostgreSQL database (as in a
 * scaled-out deployment). A fact added through one is listed by the other, concurrent adds
 * through both keep every fact, and a forget through one is seen by the other.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryDocument } from "../../src/agent/memory/memory-document.js";
import { type ServeProcess, startFawnServe } from "../helpers/fawn-serve-process.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const postgres = await createPostgresTestDatabase("memory_two_processes");

let home = "";
let a: ServeProcess | undefined;
let b: ServeProcess | undefined;

beforeAll(async () => {
  if (postgres === null) return;
  home = await mkdtemp(join(tmpdir(), "fawn-memory-two-"));
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

async function call(
  server: ServeProcess | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  if (!server) throw new Error("servers not started");
  const response = await fetch(`${server.apiUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
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

  it("a forget through one process is what the other reads", async () => {
    const before = (await call(b, "GET", "/memory")).json as MemoryDocument;
    const cleared = await call(a, "DELETE", "/memory");
    expect(cleared.status).toBe(200);
    const after = (await call(b, "GET", "/memory")).json as MemoryDocument;
    expect(after.facts).toEqual([]);
    expect(after.revision).toBeGreaterThan(before.revision);
  });
});
