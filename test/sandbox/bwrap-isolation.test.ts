/**
 * What makes the bubblewrap sandbox a sandbox: no network, no host files outside its mounts
 * (/etc/shadow, other threads, the Fawn database), no writes outside workspace and outputs, no
 * host environment, and a runaway or forking command killed at its timeout with no survivors.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { FawnPaths } from "../../src/core/paths.js";
import { createSandboxProvider } from "../../src/sandbox/create-sandbox-provider.js";
import type { ManagedSandboxProvider } from "../../src/sandbox/lifecycle/managed-provider.js";
import type { Sandbox } from "../../src/sandbox/sandbox.js";
import { makeSkillsDir } from "../conformance/sandbox.js";
import { pidsWithMarker, survivorsAfter, uniqueSleepSeconds } from "./helpers/process-scan.js";
import { requireBwrap } from "./helpers/require-bwrap.js";

const bwrapWorks = await requireBwrap();
const run = { timeoutMs: 20_000, maxOutputBytes: 100_000 };

/** Polls for processes with `marker` until some show up or the command ends; returns the most seen. */
async function seenWhileRunning(marker: string, running: Promise<unknown>): Promise<number> {
  let ended = false;
  void running.finally(() => {
    ended = true;
  });
  let most = 0;
  while (!ended && most === 0) {
    most = Math.max(most, (await pidsWithMarker(marker)).length);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return most;
}

describe.runIf(bwrapWorks)("bubblewrap isolation", () => {
  let home: string;
  let paths: FawnPaths;
  let provider: ManagedSandboxProvider;
  let sandbox: Sandbox;
  const alice = { userId: "alice", threadId: "t-alice" };

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-bwrap-isolation-"));
    paths = new FawnPaths(home);
    await makeSkillsDir(home);
    provider = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: "bwrap" }),
      paths,
      skillsDir: join(home, "skills"),
    });
    const found = provider.get(await provider.acquire(alice.threadId, alice.userId));
    if (!found) throw new Error("no sandbox");
    sandbox = found;
  });

  afterAll(async () => {
    await provider?.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  it("has no network: a listener on the host's 127.0.0.1 cannot be reached", async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const result = await sandbox.execute(
        `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo connected || echo refused; ls /sys/class/net 2>/dev/null | tr '\\n' ' '`,
        run,
      );
      expect(result.stdout.split("\n")[0]).toBe("refused");
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("cannot read /etc/shadow, another thread's folder or the Fawn database", async () => {
    const bob = paths.threadPaths({ userId: "bob", threadId: "t-bob" });
    await mkdir(bob.outputsDir, { recursive: true });
    await writeFile(join(bob.outputsDir, "secret.txt"), "bob's secret");
    // The host itself can read what the sandbox must not.
    expect((await stat("/etc/shadow")).isFile()).toBe(true);
    const database = join(home, "fawn.db");
    await writeFile(database, "SQLite format 3\0 fake rows");
    const result = await sandbox.execute(
      [
        "cat /etc/shadow",
        `cat ${join(bob.outputsDir, "secret.txt")}`,
        `cat ${database}`,
        `ls ${home}`,
        "find / -path /proc -prune -o -path /usr -prune -o \\( -name secret.txt -o -name fawn.db \\) -print",
      ].join("; "),
      run,
    );
    expect(result.stdout).toBe("");
    expect(result.stdout + result.stderr).not.toContain("bob's secret");
    expect(result.stdout + result.stderr).not.toContain("SQLite");
  });

  it("can write only its workspace, outputs and a private /tmp", async () => {
    const targets = [
      "/mnt/user-data/uploads/x",
      "/mnt/user-data/x",
      "/mnt/skills/x",
      "/mnt/x",
      "/usr/x",
      "/etc/x",
      "/x",
    ];
    const attempts = targets.map(
      (path) => `(echo x > ${path}) 2>/dev/null && echo "wrote ${path}"`,
    );
    const result = await sandbox.execute(
      [
        ...attempts,
        "echo w > /mnt/user-data/workspace/w.txt && echo workspace-ok",
        "echo o > /mnt/user-data/outputs/o.txt && echo outputs-ok",
        "echo t > /tmp/t.txt && echo tmp-ok",
      ].join("; "),
      run,
    );
    expect(result.stdout).toBe("workspace-ok\noutputs-ok\ntmp-ok\n");
    const { uploadsDir, userDataDir } = paths.threadPaths(alice);
    expect(await readdir(uploadsDir)).toEqual([]);
    expect((await readdir(userDataDir)).sort()).toEqual(["outputs", "uploads", "workspace"]);
    // /tmp belongs to one command only.
    expect((await sandbox.execute("ls /tmp", run)).stdout).toBe("");
  });

  it("sees neither the host's processes nor its environment", async () => {
    process.env.FAWN_TEST_SECRET_VALUE = "leaked";
    try {
      const result = await sandbox.execute(
        'ls /proc | grep -c "^[0-9]"; printf "[%s] %s %s" "$FAWN_TEST_SECRET_VALUE" "$HOME" "$(id -u)"',
        run,
      );
      const [count, rest] = result.stdout.split("\n");
      expect(Number(count)).toBeLessThan(10);
      expect(rest).toMatch(/^\[\] \/tmp \d+$/);
    } finally {
      delete process.env.FAWN_TEST_SECRET_VALUE;
    }
  });

  it("applies resource limits the command cannot raise", async () => {
    const result = await sandbox.execute(
      "ulimit -n; ulimit -c; ulimit -n 4096 2>/dev/null || echo refused",
      run,
    );
    expect(result.stdout).toBe("1024\n0\nrefused\n");
  });

  it("kills a runaway loop at its timeout, leaving nothing running", async () => {
    const marker = `runaway-${randomUUID()}`;
    const running = sandbox.execute(`while :; do :; done # ${marker}`, {
      ...run,
      timeoutMs: 1_500,
    });
    // The scan sees sandboxed processes (so "no survivors" below is not vacuous).
    expect(await seenWhileRunning(marker, running)).toBeGreaterThan(0);
    expect((await running).timedOut).toBe(true);
    expect(await survivorsAfter(marker)).toEqual([]);
  });

  it("kills a forking command and all its children at its timeout", async () => {
    const seconds = uniqueSleepSeconds();
    const running = sandbox.execute(`for i in $(seq 50); do sleep ${seconds} & done; wait`, {
      ...run,
      timeoutMs: 1_500,
    });
    expect(await seenWhileRunning(`sleep ${seconds}`, running)).toBeGreaterThan(0);
    expect((await running).timedOut).toBe(true);
    expect(await survivorsAfter(`sleep ${seconds}`)).toEqual([]);
  });

  it("reaches the listener once the network is explicitly allowed (the probe has teeth)", async () => {
    const open = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: "bwrap" }),
      paths,
      allowNetwork: true,
    });
    const server: Server = createServer((socket) => socket.destroy());
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const networked = open.get(await open.acquire("t-net", "alice"));
      const result = await networked?.execute(
        `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo connected || echo refused`,
        run,
      );
      expect(result?.stdout).toBe("connected\n");
    } finally {
      server.close();
      await open.shutdown();
    }
  });
});
