/**
 * Smoke test of `npm run bench -- --quick`: every benchmark script runs end to end on tiny counts
 * and prints its tables, and the Markdown report is written. It asserts that the scripts run,
 * never what they measure (timing belongs in bench/results, not in test assertions).
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENCH_SCRIPTS } from "../../bench/scripts.js";

interface BenchOutput {
  code: number | null;
  stdout: string;
  stderr: string;
  report: string;
}

let dir: string;
let output: BenchOutput;
/** The bench's process group (its servers, Redis and Chromium included), killed if left over. */
let benchGroup: number | undefined;

async function runQuickBench(out: string): Promise<Omit<BenchOutput, "report">> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "bench/run.ts", "--quick", "--out", out],
    {
      cwd: join(import.meta.dirname, "../.."),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  benchGroup = child.pid;
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  benchGroup = undefined;
  return { code, stdout, stderr };
}

/** The part of stdout between this script's `## title` heading and the next one. */
function sectionOf(stdout: string, title: string): string {
  const start = stdout.indexOf(`## ${title}`);
  if (start < 0) return "";
  const next = stdout.indexOf("\n## ", start + 1);
  return stdout.slice(start, next < 0 ? undefined : next);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fawn-bench-smoke-"));
  const out = join(dir, "latest.md");
  const result = await runQuickBench(out);
  output = { ...result, report: await readFile(out, "utf8").catch(() => "") };
  // Every script, tiny as each is, starts servers and processes of its own: minutes when other
  // test files share the machine.
}, 600_000);

afterAll(async () => {
  // A run cut short by the timeout must not leave the bench's servers running.
  if (benchGroup !== undefined) {
    try {
      process.kill(-benchGroup, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await rm(dir, { recursive: true, force: true });
});

describe("npm run bench -- --quick", () => {
  it("exits cleanly", () => {
    expect(output.code, output.stderr).toBe(0);
  });

  it.each(BENCH_SCRIPTS.map((script) => [script.name, script.title]))(
    "%s prints a table",
    (_name, title) => {
      const section = sectionOf(output.stdout, title);
      expect(section, output.stderr).not.toBe("");
      // A table: a header line followed by a rule of dashes.
      expect(section).toMatch(/\n[^\n]+\n-{3,}(?: {2}-+)*\n/);
    },
  );

  it("writes the Markdown report with the machine, the targets and every script", () => {
    expect(output.report).toContain("## Machine and versions");
    expect(output.report).toContain("## Targets");
    for (const script of BENCH_SCRIPTS) {
      expect(output.report).toContain(`## ${script.title}`);
    }
    expect(output.report).toMatch(/\n\|:---\|/);
  });
});
