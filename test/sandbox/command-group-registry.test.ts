/**
 * Start-up reaping with real processes: a group recorded by a server that has died is killed;
 * a group recorded by a live server, and an unrelated group that merely has a recorded pgid (a
 * reused pid, not carrying the record's token), are left alone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  COMMAND_GROUP_ENV,
  CommandGroupRegistry,
} from "../../src/sandbox/process/command-group-registry.js";
import { processesInGroup } from "../../src/sandbox/process/proc-stat.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { survivorsAfter, uniqueSleepSeconds } from "./helpers/process-scan.js";

const started: ChildProcess[] = [];
let dir = "";

afterEach(async () => {
  for (const child of started.splice(0)) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A detached group of a shell and two sleepers, optionally carrying a registry token. */
async function startGroup(seconds: string, token?: string): Promise<number> {
  const child = spawn("/bin/sh", ["-c", `sleep ${seconds} & sleep ${seconds} & wait`], {
    detached: true,
    stdio: "ignore",
    env: token ? { ...process.env, [COMMAND_GROUP_ENV]: token } : process.env,
  });
  started.push(child);
  await once(child, "spawn");
  const pid = child.pid ?? 0;
  // Both sleepers forked before the group counts as started.
  while ((await processesInGroup(pid)).length < 3) await new Promise((r) => setTimeout(r, 20));
  return pid;
}

describe("CommandGroupRegistry.reapLeftovers", () => {
  it("kills groups of a dead server, never a live server's nor an unrelated process", async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-command-groups-"));
    const groupsDir = join(dir, "sandbox-commands");
    const deadServer = spawn("sleep", ["60"], { stdio: "ignore" });
    await once(deadServer, "spawn");
    const ofDeadServer = new CommandGroupRegistry(groupsDir, deadServer.pid);
    const ofLiveServer = new CommandGroupRegistry(groupsDir);

    const leftover = uniqueSleepSeconds();
    const leftoverToken = ofDeadServer.newToken();
    const leftoverGroup = await startGroup(leftover, leftoverToken);
    expect(await ofDeadServer.track(leftoverGroup, leftoverToken).written).toBe(true);

    // The dead server's record names this group, but the group is not its (no token).
    const unrelated = uniqueSleepSeconds();
    const unrelatedGroup = await startGroup(unrelated);
    expect(await ofDeadServer.track(unrelatedGroup, ofDeadServer.newToken()).written).toBe(true);

    const live = uniqueSleepSeconds();
    const liveToken = ofLiveServer.newToken();
    const liveGroup = await startGroup(live, liveToken);
    const liveRecord = ofLiveServer.track(liveGroup, liveToken);
    expect(await liveRecord.written).toBe(true);

    deadServer.kill("SIGKILL");
    await once(deadServer, "exit");
    expect(await readdir(groupsDir)).toHaveLength(3);

    const killed = await withBlockingIoGate(() =>
      new CommandGroupRegistry(groupsDir).reapLeftovers(),
    );
    expect(killed).toBe(3);
    expect(await survivorsAfter(`sleep ${leftover}`)).toEqual([]);
    expect(await processesInGroup(unrelatedGroup)).toHaveLength(3);
    expect(await processesInGroup(liveGroup)).toHaveLength(3);
    // The dead server's records are gone, the live one's stays until its command ends.
    expect(await readdir(groupsDir)).toEqual([`${liveToken}.json`]);
    await liveRecord.release();
    expect(await readdir(groupsDir)).toEqual([]);
  });
});
