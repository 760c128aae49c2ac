/**
 * `fawn doctor` as a DeerFlow user runs it: the real CLI (bin/fawn.js, a child process) on a
 * copy of test/fixtures/deerflow/config.yaml in a fresh folder. It exits 0 (no real error),
 * names every model and every tool with a status, and gives the config's verdicts by key.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { FAKE_KEYS, DEERFLOW_FIXTURE as FIXTURE } from "../helpers/deerflow-fixture.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin/fawn.js");

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function doctor(dir: string): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, "doctor"],
      {
        cwd: dir,
        timeout: 120_000,
        env: {
          ...process.env,
          ...FAKE_KEYS,
          FAWN_HOME: join(dir, "home"),
          FAWN_CONFIG: join(dir, "config.yaml"),
          // The file's own database and bridge, not whatever the test host points at.
          FAWN_DATABASE_URL: "",
          FAWN_REDIS_URL: "",
          VITEST: "",
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe("fawn doctor on a DeerFlow config.yaml", () => {
  let dir = "";
  let outcome: Outcome = { code: -1, stdout: "", stderr: "" };
  let fixture: { models: { name: string }[]; tools: { name: string; use: string }[] } = {
    models: [],
    tools: [],
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-doctor-"));
    await copyFile(FIXTURE, join(dir, "config.yaml"));
    fixture = parse(await readFile(FIXTURE, "utf8"));
    outcome = await doctor(dir);
  }, 150_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("exits 0: nothing in the file is a real error", () => {
    const fails = outcome.stdout.split("\n").filter((line) => /^\s+FAIL /.test(line));
    expect({ code: outcome.code, fails, stderr: outcome.stderr }).toEqual({
      code: 0,
      fails: [],
      stderr: "",
    });
  });

  it("names every model and every tool with a status", () => {
    const statusLine = (name: string) =>
      new RegExp(
        `^  (ok  |warn|FAIL) ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\(default\\))?: `,
        "m",
      );
    for (const model of fixture.models) expect(outcome.stdout).toMatch(statusLine(model.name));
    for (const tool of fixture.tools) expect(outcome.stdout).toMatch(statusLine(tool.name));
    expect(outcome.stdout).toMatch(/^models:$/m);
    expect(outcome.stdout).toMatch(/^tools:$/m);
    expect(outcome.stdout).toMatch(/^mcp servers:$/m);
    expect(outcome.stdout).toMatch(/^plugins:$/m);
    expect(outcome.stdout).toMatch(/^skills:$/m);
  });

  it("reports the config's verdicts by key, none unknown", () => {
    expect(outcome.stdout).toMatch(/config\.yaml: \d+ mapped, \d+ unsupported, 0 unknown key\(s\)/);
    expect(outcome.stdout).toContain(
      "mapped: run_ownership.lease_seconds: mapped onto runtime.lease_seconds",
    );
    expect(outcome.stdout).toMatch(/unsupported: mcp_tasks: not supported by Fawn, ignored: /);
  });
});
