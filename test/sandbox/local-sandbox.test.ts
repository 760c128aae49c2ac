/**
 * The local provider: the shared sandbox contract (with host bash allowed), plus what only the
 * local provider does — the host-bash switch, the command gate and host-path masking.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { FawnPaths } from "../../src/core/paths.js";
import { createSandboxProvider } from "../../src/sandbox/create-sandbox-provider.js";
import type { ManagedSandboxProvider } from "../../src/sandbox/lifecycle/managed-provider.js";
import { HOST_BASH_DISABLED_MESSAGE } from "../../src/sandbox/local/local-sandbox.js";
import { SandboxCommandRefusedError } from "../../src/sandbox/sandbox-errors.js";
import { describeSandbox, makeSkillsDir } from "../conformance/sandbox.js";

async function makeLocal(allowHostBash: boolean) {
  const home = await mkdtemp(join(tmpdir(), "fawn-local-sandbox-"));
  const paths = new FawnPaths(home);
  const skillsDir = await makeSkillsDir(home);
  const provider = await createSandboxProvider({
    config: sandboxConfigSchema.parse({ use: "local", allow_host_bash: allowHostBash }),
    paths,
    skillsDir,
  });
  return {
    provider,
    paths,
    skillsDir,
    cleanup: () => rm(home, { recursive: true, force: true }),
  };
}

describeSandbox("local", () => makeLocal(true));

describe("local provider specifics", () => {
  let fixture: Awaited<ReturnType<typeof makeLocal>>;
  let provider: ManagedSandboxProvider;
  const run = { timeoutMs: 10_000, maxOutputBytes: 100_000 };

  afterEach(async () => {
    await provider.shutdown();
    await fixture.cleanup();
  });

  describe("with host bash off (the default)", () => {
    beforeEach(async () => {
      fixture = await makeLocal(false);
      provider = fixture.provider;
    });

    it("refuses commands with a message that says how to get a sandbox, but serves files", async () => {
      const sandbox = provider.get(await provider.acquire("t-1", "alice"));
      const refused = await sandbox?.execute("echo hi", run).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SandboxCommandRefusedError);
      expect((refused as Error).message).toBe(HOST_BASH_DISABLED_MESSAGE);
      await sandbox?.writeFile("/mnt/user-data/outputs/ok.txt", "files still work");
      expect(await sandbox?.readTextFile("/mnt/user-data/outputs/ok.txt")).toBe("files still work");
    });
  });

  describe("with host bash on", () => {
    beforeEach(async () => {
      fixture = await makeLocal(true);
      provider = fixture.provider;
    });

    it("rewrites virtual paths into the command and masks host paths in its output", async () => {
      const sandbox = provider.get(await provider.acquire("t-1", "alice"));
      const hostWorkspace = fixture.paths.threadPaths({
        userId: "alice",
        threadId: "t-1",
      }).workspaceDir;
      const result = await sandbox?.execute(
        "echo /mnt/user-data/outputs/x; pwd; ls /mnt/user-data/nope",
        run,
      );
      expect(result?.stdout).toBe("/mnt/user-data/outputs/x\n/mnt/user-data/workspace\n");
      expect(result?.stderr).toContain("/mnt/user-data/nope");
      expect(result?.stderr).not.toContain(hostWorkspace);
    });

    it("refuses host paths, '..' and file:// URLs in commands (best effort, not a boundary)", async () => {
      const sandbox = provider.get(await provider.acquire("t-1", "alice"));
      for (const command of ["cat /etc/passwd", "cd .. && ls", "curl file:///etc/passwd", "ls /"]) {
        await expect(sandbox?.execute(command, run), command).rejects.toBeInstanceOf(
          SandboxCommandRefusedError,
        );
      }
      const unsafe = await sandbox
        ?.execute("cat /etc/passwd /root/x", run)
        .catch((e: unknown) => e);
      expect((unsafe as Error).message).toBe(
        "Unsafe absolute paths in command: /etc/passwd, /root/x. Use paths under /mnt/user-data",
      );
      const allowed = await sandbox?.execute(
        "/bin/echo ok > /dev/null; curl --version >/dev/null 2>&1 || true; echo https://example.com/a/b",
        run,
      );
      expect(allowed?.stdout).toBe("https://example.com/a/b\n");
    });

    it("does not pass secret-looking host variables to commands", async () => {
      process.env.FAWN_TEST_API_KEY = "sk-should-not-leak";
      try {
        const sandbox = provider.get(await provider.acquire("t-1", "alice"));
        const result = await sandbox?.execute('printf "[%s]" "$FAWN_TEST_API_KEY"', run);
        expect(result?.stdout).toBe("[]");
      } finally {
        delete process.env.FAWN_TEST_API_KEY;
      }
    });
  });
});
