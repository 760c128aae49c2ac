/**
 * `fawn demo` and `fawn run` as a user runs them: a child process of bin/fawn.js with a fresh
 * FAWN_HOME. The demo exits 0 and prints the report's host path; a run whose model fails exits
 * non-zero. Both exit on their own (no hang).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin/fawn.js");
const COPY_ASSETS = join(ROOT, "scripts/copy-build-assets.mjs");

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `entry`: the launcher (default) or a compiled `cli/main.js`. */
function fawn(home: string, args: string[], entry = BIN): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [entry, ...args],
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

  async function expectDemoSucceeds(entry = BIN): Promise<void> {
    const { code, stdout, stderr } = await fawn(home, ["demo"], entry);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/→ tool write_file/);
    expect(stdout).toMatch(/→ tool present_files/);
    const match = /^\s+(\S+report\.md)\s+\(\/mnt\/user-data\/outputs\/report\.md\)$/m.exec(stdout);
    const hostPath = match?.[1] ?? "";
    expect(hostPath.startsWith(home)).toBe(true);
    expect(await readFile(hostPath, "utf8")).toMatch(/^# Prime numbers below 100/);
    expect(stdout).toMatch(/succeeded\.\n$/);
  }

  it("fawn demo exits 0 and prints the path of the report it wrote", async () => {
    await expectDemoSucceeds();
  }, 90_000);

  it("the build output runs fawn demo (assets beside the compiled code)", async () => {
    // `npm run build` is tsc, then the asset copy into the same out dir.
    const tsconfig = JSON.parse(await readFile(join(ROOT, "tsconfig.build.json"), "utf8"));
    const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.build).toBe(
      `tsc -p tsconfig.build.json && node scripts/copy-build-assets.mjs ${tsconfig.compilerOptions.outDir}`,
    );
    // A full tsc emit takes minutes on a busy host; esbuild emits the same per-file layout
    // (src/x/y.ts → out/x/y.js) in about a second. Inside the repo, so node_modules resolves.
    const out = await mkdtemp(join(ROOT, ".build-test-"));
    try {
      const sources = (await readdir(join(ROOT, "src"), { recursive: true }))
        .filter((file) => /\.(ts|js)$/.test(file) && !/\.test\.ts$/.test(file))
        .map((file) => join(ROOT, "src", file));
      await build({
        entryPoints: sources,
        outdir: out,
        outbase: join(ROOT, "src"),
        format: "esm",
        platform: "node",
        target: "node20",
        logLevel: "silent",
      });
      const { stdout } = await promisify(execFile)(process.execPath, [COPY_ASSETS, out]);
      expect(stdout).toContain(`to ${relative(ROOT, out)}`);
      await expectDemoSucceeds(join(out, "cli/main.js"));
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);

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
