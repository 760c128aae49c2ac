/**
 * The Sandbox / SandboxProvider contract as executable spec, shared by every provider: commands,
 * exit codes, timeouts (no survivors), output caps, text / unicode / binary files, glob, grep and
 * path escapes. Every test body runs under the blocking-IO gate: sandbox work must never do
 * synchronous IO on the event loop.
 */
import { randomUUID } from "node:crypto";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PathEscapeError, ValidationError } from "../../src/core/errors.js";
import type { FawnPaths, ThreadScope } from "../../src/core/paths.js";
import type { Sandbox } from "../../src/sandbox/sandbox.js";
import {
  InvalidRegexError,
  SandboxDirectoryNotFoundError,
  SandboxFileNotFoundError,
  SandboxIsADirectoryError,
  SandboxNotADirectoryError,
  SandboxNotTextError,
  SandboxReadOnlyError,
  StringNotFoundError,
} from "../../src/sandbox/sandbox-errors.js";
import type { SandboxProvider } from "../../src/sandbox/sandbox-provider.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { survivorsAfter, uniqueSleepSeconds } from "../sandbox/helpers/process-scan.js";

export interface SandboxFixture {
  provider: SandboxProvider;
  paths: FawnPaths;
  /** Host folder the provider shows at /mnt/skills. */
  skillsDir: string;
  cleanup(): Promise<void>;
}

const WS = "/mnt/user-data/workspace";
const OUT = "/mnt/user-data/outputs";
const UP = "/mnt/user-data/uploads";
const run = { timeoutMs: 20_000, maxOutputBytes: 1_000_000 };

export function describeSandbox(name: string, makeFixture: () => Promise<SandboxFixture>): void {
  describe(`Sandbox contract: ${name}`, () => {
    let fixture: SandboxFixture;
    let scope: ThreadScope;
    let sandbox: Sandbox;

    beforeEach(async () => {
      fixture = await makeFixture();
      scope = { userId: "alice", threadId: `t-${randomUUID()}` };
      const id = await fixture.provider.acquire(scope.threadId, scope.userId);
      const found = fixture.provider.get(id);
      if (!found) throw new Error("acquired sandbox is not active");
      sandbox = found;
    });

    afterEach(async () => {
      await fixture.provider.shutdown();
      await fixture.cleanup();
    });

    const gated = (body: () => Promise<void>) => () => withBlockingIoGate(body);
    const hostPaths = () => fixture.paths.threadPaths(scope);

    describe("provider", () => {
      it(
        "gives one thread one stable id, another thread another",
        gated(async () => {
          const again = await fixture.provider.acquire(scope.threadId, scope.userId);
          expect(fixture.provider.get(again)).toBe(sandbox);
          const other = await fixture.provider.acquire(`t-${randomUUID()}`, scope.userId);
          expect(other).not.toBe(again);
          const concurrent = await Promise.all(
            [1, 2, 3].map(() => fixture.provider.acquire(scope.threadId, scope.userId)),
          );
          expect(new Set(concurrent)).toEqual(new Set([again]));
        }),
      );

      it(
        "forgets a released sandbox until it is acquired again, with the same id",
        gated(async () => {
          expect(fixture.provider.get("no-such-sandbox")).toBeNull();
          await fixture.provider.release(sandbox.id);
          expect(fixture.provider.get(sandbox.id)).toBeNull();
          expect(await fixture.provider.acquire(scope.threadId, scope.userId)).toBe(sandbox.id);
          expect(fixture.provider.get(sandbox.id)).not.toBeNull();
        }),
      );
    });

    describe("commands", () => {
      it(
        "runs in the workspace and separates stdout, stderr and the exit code",
        gated(async () => {
          const result = await sandbox.execute("pwd; echo to-err >&2; exit 3", run);
          expect(result).toEqual({
            exitCode: 3,
            stdout: `${WS}\n`,
            stderr: "to-err\n",
            truncated: false,
            timedOut: false,
          });
          expect((await sandbox.execute("false", run)).exitCode).toBe(1);
          expect((await sandbox.execute("true", run)).exitCode).toBe(0);
        }),
      );

      it(
        "takes a working directory and extra environment, and refuses bad variable names",
        gated(async () => {
          const result = await sandbox.execute('pwd; printf "%s" "$GREETING"', {
            ...run,
            cwd: OUT,
            env: { GREETING: "hello 'quoted' $world" },
          });
          expect(result.stdout).toBe(`${OUT}\nhello 'quoted' $world`);
          await expect(
            sandbox.execute("true", { ...run, env: { "BAD-NAME": "x" } }),
          ).rejects.toBeInstanceOf(ValidationError);
        }),
      );

      it(
        "kills a command and everything it started at the timeout",
        gated(async () => {
          const seconds = uniqueSleepSeconds();
          const result = await sandbox.execute(
            `echo started; sleep ${seconds} & sleep ${seconds} & wait`,
            { ...run, timeoutMs: 500 },
          );
          expect(result.timedOut).toBe(true);
          expect(result.exitCode).toBe(137);
          expect(result.stdout).toBe("started\n");
          expect(await survivorsAfter(`sleep ${seconds}`)).toEqual([]);
        }),
      );

      it(
        "kills grandchildren at the timeout too (a background shell's own children)",
        gated(async () => {
          const seconds = uniqueSleepSeconds();
          const result = await sandbox.execute(
            `bash -c 'sleep ${seconds} & sleep ${seconds}' & bash -c 'sleep ${seconds}'`,
            { ...run, timeoutMs: 500 },
          );
          expect(result.timedOut).toBe(true);
          expect(await survivorsAfter(`sleep ${seconds}`)).toEqual([]);
        }),
      );

      it(
        "leaves no background process behind when a command ends",
        gated(async () => {
          const seconds = uniqueSleepSeconds();
          const result = await sandbox.execute(`sleep ${seconds} >/dev/null 2>&1 & echo bye`, run);
          expect(result.stdout).toBe("bye\n");
          expect(await survivorsAfter(`sleep ${seconds}`)).toEqual([]);
        }),
      );

      it(
        "caps output per stream and keeps draining so the command finishes",
        gated(async () => {
          const result = await sandbox.execute(
            "head -c 300000 /dev/zero | tr '\\0' a; echo finished >&2",
            { ...run, maxOutputBytes: 1000 },
          );
          expect(result.stdout).toBe("a".repeat(1000));
          expect(result.stderr).toBe("finished\n");
          expect(result.truncated).toBe(true);
          expect(result.exitCode).toBe(0);
        }),
      );

      it(
        "decodes unicode output and never splits a character at the cap",
        gated(async () => {
          const text = "héllo wörld ✓ 𝄞 日本語";
          expect((await sandbox.execute(`printf '%s' '${text}'`, run)).stdout).toBe(text);
          const cut = await sandbox.execute("printf 'ééé'", { ...run, maxOutputBytes: 3 });
          expect(cut.stdout).toBe("é");
          expect(cut.truncated).toBe(true);
        }),
      );

      it(
        "stops a command whose signal aborts",
        gated(async () => {
          const controller = new AbortController();
          const reason = new Error("run cancelled");
          const running = sandbox.execute("sleep 20", { ...run, signal: controller.signal });
          setTimeout(() => controller.abort(reason), 100);
          await expect(running).rejects.toBe(reason);
        }),
      );

      it(
        "shares files with the file operations both ways",
        gated(async () => {
          await sandbox.writeFile(`${WS}/in.txt`, "from the tool\n");
          const result = await sandbox.execute(
            `cat in.txt && printf 'from bash' > ${OUT}/made.txt`,
            run,
          );
          expect(result.stdout).toBe("from the tool\n");
          expect(await sandbox.readTextFile(`${OUT}/made.txt`)).toBe("from bash");
        }),
      );

      it(
        "writes binary data from a command that the file API reads back exactly",
        gated(async () => {
          await sandbox.execute("printf '\\000\\377\\020\\n' > bytes.bin", run);
          expect([...(await sandbox.readFile(`${WS}/bytes.bin`))]).toEqual([0, 255, 16, 10]);
        }),
      );
    });

    describe("files", () => {
      it(
        "round-trips text, unicode and every byte value",
        gated(async () => {
          const text = "こんにちは 👋 ñandú\nline 2\n";
          await sandbox.writeFile(`${WS}/notes/today/u.txt`, text);
          expect(await sandbox.readTextFile(`${WS}/notes/today/u.txt`)).toBe(text);
          const bytes = new Uint8Array(256).map((_, index) => index);
          await sandbox.writeFile(`${OUT}/all.bin`, bytes);
          expect(await sandbox.readFile(`${OUT}/all.bin`)).toEqual(bytes);
          await expect(sandbox.readTextFile(`${OUT}/all.bin`)).rejects.toBeInstanceOf(
            SandboxNotTextError,
          );
          await sandbox.updateFile(`${OUT}/all.bin`, new Uint8Array([1, 2]));
          expect([...(await sandbox.readFile(`${OUT}/all.bin`))]).toEqual([1, 2]);
        }),
      );

      it(
        "appends, and replaces text literally (first, all, absent, empty)",
        gated(async () => {
          const path = `${WS}/r.txt`;
          await sandbox.writeFile(path, "a-$&-a\n");
          await sandbox.writeFile(path, "a again\n", { append: true });
          expect(await sandbox.replaceInFile(path, "a", "$&b")).toBe(1);
          expect(await sandbox.readTextFile(path)).toBe("$&b-$&-a\na again\n");
          expect(await sandbox.replaceInFile(path, "a", "A", { replaceAll: true })).toBe(4);
          expect(await sandbox.readTextFile(path)).toBe("$&b-$&-A\nA AgAin\n");
          expect(await sandbox.replaceInFile(path, "", "x")).toBe(0);
          await expect(sandbox.replaceInFile(path, "zzz", "y")).rejects.toBeInstanceOf(
            StringNotFoundError,
          );
        }),
      );

      it(
        "words missing files and folders the way the tools show them",
        gated(async () => {
          const missing = await sandbox.readTextFile(`${WS}/nope.txt`).catch((e: unknown) => e);
          expect(missing).toBeInstanceOf(SandboxFileNotFoundError);
          expect((missing as Error).message).toBe(`File not found: ${WS}/nope.txt`);
          await expect(sandbox.readFile(WS)).rejects.toBeInstanceOf(SandboxIsADirectoryError);
          await expect(sandbox.listDir(`${WS}/none`)).rejects.toBeInstanceOf(
            SandboxDirectoryNotFoundError,
          );
          await sandbox.writeFile(`${WS}/f.txt`, "x");
          await expect(sandbox.listDir(`${WS}/f.txt`)).rejects.toBeInstanceOf(
            SandboxNotADirectoryError,
          );
        }),
      );

      it(
        "reads uploads and skills but refuses to write them",
        gated(async () => {
          await writeFile(join(hostPaths().uploadsDir, "data.csv"), "a,b\n1,2\n");
          expect(await sandbox.readTextFile(`${UP}/data.csv`)).toBe("a,b\n1,2\n");
          await expect(sandbox.writeFile(`${UP}/data.csv`, "changed")).rejects.toBeInstanceOf(
            SandboxReadOnlyError,
          );
          expect(await sandbox.readTextFile("/mnt/skills/demo/SKILL.md")).toBe("# demo skill\n");
          await expect(sandbox.writeFile("/mnt/skills/demo/x.md", "x")).rejects.toBeInstanceOf(
            SandboxReadOnlyError,
          );
          await expect(sandbox.writeFile("/mnt/user-data/loose.txt", "x")).rejects.toBeInstanceOf(
            SandboxReadOnlyError,
          );
        }),
      );

      it(
        "lists two levels deep, skipping noise",
        gated(async () => {
          await sandbox.writeFile(`${WS}/src/app/main.py`, "print(1)\n");
          await sandbox.writeFile(`${WS}/src/deep/er/x.txt`, "x");
          await sandbox.writeFile(`${WS}/node_modules/pkg/index.js`, "x");
          await sandbox.writeFile(`${WS}/README.md`, "# hi");
          const entries = await sandbox.listDir(WS);
          expect(entries).toEqual([
            { path: `${WS}/README.md`, type: "file", depth: 1 },
            { path: `${WS}/src`, type: "directory", depth: 1 },
            { path: `${WS}/src/app`, type: "directory", depth: 2 },
            { path: `${WS}/src/deep`, type: "directory", depth: 2 },
          ]);
          const top = await sandbox.listDir("/mnt/user-data", { maxDepth: 1 });
          expect(top.map((entry) => entry.path)).toEqual([OUT, UP, WS]);
        }),
      );
    });

    describe("glob and grep", () => {
      beforeEach(async () => {
        await sandbox.writeFile(`${WS}/a.md`, "Alpha line\nnothing\n");
        await sandbox.writeFile(`${WS}/docs/b.md`, "beta ALPHA\n(paren) 1+1\n");
        await sandbox.writeFile(`${WS}/docs/c.txt`, "alpha in txt\n");
        await sandbox.writeFile(`${WS}/docs/bin.dat`, new Uint8Array([97, 108, 0, 112]));
      });

      it(
        "globs at the top level, recursively, with folders and a result limit",
        gated(async () => {
          expect((await sandbox.glob(WS, "*.md")).paths).toEqual([`${WS}/a.md`]);
          expect(await sandbox.glob(WS, "**/*.md")).toEqual({
            paths: [`${WS}/a.md`, `${WS}/docs/b.md`],
            truncated: false,
          });
          expect((await sandbox.glob(WS, "**/*.{md,txt}")).paths).toHaveLength(3);
          expect((await sandbox.glob(WS, "do*", { includeDirs: true })).paths).toEqual([
            `${WS}/docs`,
          ]);
          expect(await sandbox.glob(WS, "**/*", { maxResults: 2 })).toEqual({
            paths: [`${WS}/a.md`, `${WS}/docs/b.md`],
            truncated: true,
          });
          expect((await sandbox.glob(WS, "**/*.zip")).paths).toEqual([]);
        }),
      );

      it(
        "greps case-insensitively by default, literally on request, filtered by glob",
        gated(async () => {
          const all = await sandbox.grep(WS, "alpha");
          expect(all.matches).toEqual([
            { path: `${WS}/a.md`, lineNumber: 1, line: "Alpha line" },
            { path: `${WS}/docs/b.md`, lineNumber: 1, line: "beta ALPHA" },
            { path: `${WS}/docs/c.txt`, lineNumber: 1, line: "alpha in txt" },
          ]);
          expect((await sandbox.grep(WS, "alpha", { caseSensitive: true })).matches).toHaveLength(
            1,
          );
          expect((await sandbox.grep(WS, "alpha", { glob: "*.md" })).matches).toHaveLength(2);
          expect((await sandbox.grep(WS, "(paren) 1+1", { literal: true })).matches).toEqual([
            { path: `${WS}/docs/b.md`, lineNumber: 2, line: "(paren) 1+1" },
          ]);
          expect(await sandbox.grep(WS, "alpha", { maxResults: 1 })).toEqual({
            matches: [{ path: `${WS}/a.md`, lineNumber: 1, line: "Alpha line" }],
            truncated: true,
          });
          expect((await sandbox.grep(`${WS}/a.md`, "nothing")).matches).toHaveLength(1);
          expect((await sandbox.grep(WS, "al.p")).matches).toEqual([]);
          await expect(sandbox.grep(WS, "(unclosed")).rejects.toBeInstanceOf(InvalidRegexError);
        }),
      );
    });

    describe("path escapes", () => {
      it(
        "refuses paths outside the mounts, relative paths and any '..'",
        gated(async () => {
          for (const path of [
            "/etc/passwd",
            "relative.txt",
            `${WS}/../../../../etc/passwd`,
            `${WS}/sub/../x.txt`,
            "/mnt/user-dataX/workspace/x",
            "/mnt",
            `${WS}/nul\0byte`,
          ]) {
            await expect(sandbox.readTextFile(path), path).rejects.toBeInstanceOf(PathEscapeError);
            await expect(sandbox.writeFile(path, "x"), path).rejects.toBeInstanceOf(
              PathEscapeError,
            );
          }
          await expect(sandbox.listDir(`${WS}/..`)).rejects.toBeInstanceOf(PathEscapeError);
          await expect(sandbox.execute("pwd", { ...run, cwd: "/etc" })).rejects.toBeInstanceOf(
            PathEscapeError,
          );
        }),
      );

      it(
        "does not follow symlinks out of the thread's folders",
        gated(async () => {
          const { workspaceDir, outputsDir } = hostPaths();
          await symlink("/etc", join(workspaceDir, "etc-link"));
          await symlink("/etc/hostname", join(workspaceDir, "host-file"));
          await symlink(join(outputsDir, "x"), join(workspaceDir, "to-outputs"));
          await expect(sandbox.readTextFile(`${WS}/etc-link/hostname`)).rejects.toBeInstanceOf(
            PathEscapeError,
          );
          await expect(sandbox.readTextFile(`${WS}/host-file`)).rejects.toBeInstanceOf(
            PathEscapeError,
          );
          await expect(sandbox.writeFile(`${WS}/etc-link/evil`, "x")).rejects.toBeInstanceOf(
            PathEscapeError,
          );
          await expect(sandbox.writeFile(`${WS}/host-file`, "x")).rejects.toBeInstanceOf(
            PathEscapeError,
          );
          await expect(sandbox.writeFile(`${WS}/to-outputs`, "x")).rejects.toBeInstanceOf(
            PathEscapeError,
          );
          const listed = (await sandbox.listDir(WS)).map((entry) => entry.path);
          expect(listed).not.toContain(`${WS}/etc-link`);
          expect((await sandbox.glob(WS, "**/*")).paths).toEqual([]);
          expect((await sandbox.grep(WS, "root")).matches).toEqual([]);
        }),
      );

      it(
        "keeps threads of different users apart",
        gated(async () => {
          await sandbox.writeFile(`${OUT}/secret.txt`, "alice only");
          const bobId = await fixture.provider.acquire(scope.threadId, "bob");
          const bob = fixture.provider.get(bobId);
          expect(bobId).not.toBe(sandbox.id);
          await expect(bob?.readTextFile(`${OUT}/secret.txt`)).rejects.toBeInstanceOf(
            SandboxFileNotFoundError,
          );
          expect((await bob?.execute(`ls -A ${OUT}`, run))?.stdout).toBe("");
        }),
      );
    });
  });
}

/** The skills folder every fixture shows at /mnt/skills. */
export async function makeSkillsDir(home: string): Promise<string> {
  const skillsDir = join(home, "skills");
  await mkdir(join(skillsDir, "demo"), { recursive: true });
  await writeFile(join(skillsDir, "demo", "SKILL.md"), "# demo skill\n");
  return skillsDir;
}
