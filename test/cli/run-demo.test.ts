/**
 * `fawn demo` and `fawn run` as a user runs them: a child process of bin/fawn.js with a fresh
 * FAWN_HOME. The demo exits 0 and prints the report's host path; a run whose model fails exits
 * non-zero. Both exit on their own (no hang).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/fawn.js", import.meta.url));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function fawn(home: string, args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: home,
        timeout: 60_000,
        env: { ...process.env, FAWN_HOME: home, FAWN_CONFIG: "", VITEST: "" },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe("fawn demo / fawn run", () => {
  let home = "";

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-cli-"));
  });

  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it("fawn demo exits 0 and prints the path of the report it wrote", async () => {
    const { code, stdout, stderr } = await fawn(home, ["demo"]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/→ tool write_file/);
    expect(stdout).toMatch(/→ tool present_files/);
    const match = /^\s+(\S+report\.md)\s+\(\/mnt\/user-data\/outputs\/report\.md\)$/m.exec(stdout);
    const hostPath = match?.[1] ?? "";
    expect(hostPath.startsWith(home)).toBe(true);
    expect(await readFile(hostPath, "utf8")).toMatch(/^# Prime numbers below 100/);
    expect(stdout).toMatch(/succeeded\.\n$/);
  }, 90_000);

  it("a run whose model fails exits non-zero and says why", async () => {
    await writeFile(
      join(home, "config.yaml"),
      "models:\n  - name: broken\n    use: scripted\n    model: broken\n    script: missing-script.yaml\n",
    );
    const { code, stderr } = await fawn(home, ["run", "do something"]);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/ended error/);
  }, 90_000);
});
