/**
 * `fawn serve` on a DeerFlow config.yaml as it is (test/fixtures/deerflow/config.yaml, copied to
 * a fresh folder): it starts, and `GET /api/models` lists every model of the file, default first.
 */
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEERFLOW_FIXTURE, FAKE_KEYS } from "../helpers/deerflow-fixture.js";
import { type ServeProcess, startFawnServe } from "../helpers/fawn-serve-process.js";

describe("fawn serve on a DeerFlow config.yaml", () => {
  let dir = "";
  let server: ServeProcess | null = null;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-serve-deerflow-"));
    await copyFile(DEERFLOW_FIXTURE, join(dir, "config.yaml"));
    server = await startFawnServe(join(dir, "home"), {
      ...FAKE_KEYS,
      FAWN_CONFIG: join(dir, "config.yaml"),
      FAWN_DATABASE_URL: "",
      FAWN_REDIS_URL: "",
    });
  }, 60_000);

  afterAll(async () => {
    if (server) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it("starts and lists every model of the file", async () => {
    if (server === null) throw new Error("server not started");
    const fixture: { models: { name: string }[] } = parse(await readFile(DEERFLOW_FIXTURE, "utf8"));
    const response = await fetch(`${server.apiUrl}/models`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { models: { name: string; is_default: boolean }[] };
    expect(body.models.map((model) => model.name)).toEqual(fixture.models.map((m) => m.name));
    expect(body.models[0]?.is_default).toBe(true);
  });
});
