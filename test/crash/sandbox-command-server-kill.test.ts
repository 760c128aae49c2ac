/**
 * Local-sandbox commands die with their server. A real `fawn serve` (local provider, host bash
 * allowed) runs a scripted bash step that starts long `sleep`s in the background (one of them a
 * grandchild) and one in the foreground; the server is SIGKILLed mid-command, and the command's
 * whole process group must be gone long before its own `bash_command_timeout` would have ended
 * it. When a command defeated that (it killed its group's supervisor watcher), the next server
 * started on the same FAWN_HOME kills the leftover group at start-up.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { sleep } from "../../src/core/async/deadline.js";
import { processesInGroup, readProcStat } from "../../src/sandbox/process/proc-stat.js";
import { type ServeProcess, startFawnServe } from "../helpers/fawn-serve-process.js";
import { pidsWithMarker, uniqueSleepSeconds } from "../sandbox/helpers/process-scan.js";

/** The command's own timeout; the group must be gone well before it. */
const COMMAND_TIMEOUT_S = 120;
const GONE_WITHIN_MS = 20_000;

const homes: string[] = [];
const servers: ServeProcess[] = [];
const groups = new Set<number>();

afterEach(async () => {
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
  }
  // Whatever the outcome, leave no sleeper behind for the rest of the suite.
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  groups.clear();
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

async function waitFor<T>(what: string, probe: () => Promise<T | null>, boundMs: number) {
  const until = Date.now() + boundMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A FAWN_HOME whose model answers a message naming a key of `commands` with one bash call. */
async function homeRunning(commands: Record<string, string>): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "fawn-sandbox-kill-"));
  homes.push(home);
  const script = Object.entries(commands).map(([match, command]) => ({
    match,
    turns: [
      { tool_calls: [{ name: "bash", args: { description: "wait long", command } }] },
      { content: "done" },
    ],
  }));
  await writeFile(join(home, "script.yaml"), JSON.stringify(script));
  const config = {
    sandbox: { use: "local", allow_host_bash: true, bash_command_timeout: COMMAND_TIMEOUT_S },
    models: [{ name: "long", use: "scripted", model: "long", script: join(home, "script.yaml") }],
  };
  await writeFile(join(home, "config.yaml"), JSON.stringify(config));
  return home;
}

async function serve(home: string): Promise<ServeProcess> {
  const server = await startFawnServe(home);
  servers.push(server);
  return server;
}

/**
 * Starts a run on `server` whose message is `key`, and returns the process group its
 * `sleep <seconds>`s run in once `sleepers` of them are there.
 */
async function startCommand(server: ServeProcess, key: string, seconds: string, sleepers: number) {
  const client = new Client({ apiUrl: server.apiUrl, apiKey: null });
  const thread = await client.threads.create();
  await client.runs.create(thread.thread_id, "lead_agent", {
    input: { messages: [{ role: "user", content: key }] },
  });
  const pids = await waitFor(
    "the command's sleepers",
    async () => {
      const found = await pidsWithMarker(`sleep ${seconds}`);
      return found.length >= sleepers ? found : null;
    },
    20_000,
  );
  const found = new Set<number>();
  for (const pid of pids) {
    const stat = await readProcStat(pid);
    if (stat) found.add(stat.pgrp);
  }
  for (const pgid of found) groups.add(pgid);
  expect(found.size).toBe(1);
  const [pgid = 0] = found;
  return pgid;
}

async function membersLeftAfter(pgid: number, boundMs: number) {
  return waitFor(
    "the command's group to die",
    async () => ((await processesInGroup(pgid)).length === 0 ? [] : null),
    boundMs,
  ).catch(async () => processesInGroup(pgid));
}

describe("local-sandbox commands when their server is SIGKILLed", () => {
  it("die with the server, process group and all; a group that outlived it dies when the next server starts", async () => {
    const plain = uniqueSleepSeconds();
    const leftover = uniqueSleepSeconds();
    const home = await homeRunning({
      // A background child, a background grandchild and a foreground sleeper.
      plain: `sleep ${plain} & bash -c 'sleep ${plain} & wait' & sleep ${plain}`,
      // Kills every `sh` of its own group but its parent (the supervisor): that is the watcher.
      leftover:
        `for p in $(pgrep -g 0 -x sh); do [ "$p" = "$PPID" ] || kill -9 "$p"; done; ` +
        `sleep ${leftover} & sleep ${leftover}`,
    });
    const first = await serve(home);
    const plainGroup = await startCommand(first, "plain", plain, 3);
    const leftoverGroup = await startCommand(first, "leftover", leftover, 2);
    expect(plainGroup).not.toBe(leftoverGroup);

    first.child.kill("SIGKILL");
    await first.exited;
    expect(await membersLeftAfter(plainGroup, GONE_WITHIN_MS)).toEqual([]);
    expect(await pidsWithMarker(`sleep ${plain}`)).toEqual([]);
    // Nothing watches the other group any more: it is a leftover.
    expect((await processesInGroup(leftoverGroup)).length).toBeGreaterThanOrEqual(2);

    const second = await serve(home);
    expect(await membersLeftAfter(leftoverGroup, GONE_WITHIN_MS)).toEqual([]);
    expect(await pidsWithMarker(`sleep ${leftover}`)).toEqual([]);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 90_000);
});
