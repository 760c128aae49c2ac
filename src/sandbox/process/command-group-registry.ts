import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { isSameProcessAlive, type ProcStat, processesInGroup, readProcStat } from "./proc-stat.js";

/** The environment variable every tracked command carries: proof a process is one of ours. */
export const COMMAND_GROUP_ENV = "FAWN_COMMAND_GROUP";

const recordSchema = z.object({
  token: z.string().regex(/^[0-9a-f-]{36}$/),
  pgid: z.number().int().positive(),
  /** The group leader's start time (`/proc/<pgid>/stat` field 22). */
  leaderStartTime: z.number().int().nonnegative(),
  serverPid: z.number().int().positive(),
  serverStartTime: z.number().int().nonnegative(),
});
type GroupRecord = z.output<typeof recordSchema>;

/** One running command's entry; `release` once its group is dead. */
export interface TrackedGroup {
  /** Settles once the record is on disk (true) or was not written (false). */
  readonly written: Promise<boolean>;
  release(): Promise<void>;
}

/** Kill rounds per leftover group: a process forking while we kill shows up in the next scan. */
const REAP_ROUNDS = 10;

/**
 * Which process groups this server's sandbox commands run in, one small file each under `dir`
 * (written atomically), so that a server starting after a crash can kill what a dead server left
 * running. Commands already die with their server through their supervisor (`runProcess`); this
 * catches the rest (a supervisor killed from inside the command). A process is killed only when
 * every identity check holds: the recorded server (pid + start time) is gone, the process is in
 * the recorded group, started no earlier than the group's leader, and carries the record's token
 * in its environment — so a pid the system reused for something else is never touched.
 */
export class CommandGroupRegistry {
  private ready: Promise<void> | undefined;
  private readonly server: Promise<ProcStat | null>;

  /** `serverPid`: the process whose death makes these groups leftovers (this one by default). */
  constructor(
    private readonly dir: string,
    serverPid: number = process.pid,
  ) {
    this.server = readProcStat(serverPid);
  }

  /** A fresh token for a command's environment (`COMMAND_GROUP_ENV`). */
  newToken(): string {
    return randomUUID();
  }

  /** Records a started command's group; never throws (tracking is a safety net, not a gate). */
  track(pgid: number, token: string): TrackedGroup {
    const path = join(this.dir, `${token}.json`);
    const written = this.write(path, pgid, token).catch(() => false);
    return {
      written,
      release: async () => {
        if (await written) await unlink(path).catch(() => undefined);
      },
    };
  }

  /**
   * Kills the groups recorded by servers that are no longer running and forgets their records.
   * Returns how many processes it killed.
   */
  async reapLeftovers(): Promise<number> {
    const names = await readdir(this.dir).catch(() => []);
    let killed = 0;
    for (const name of names) {
      if (!name.endsWith(".json")) continue;
      const path = join(this.dir, name);
      const record = await readRecord(path);
      if (record && (await isSameProcessAlive(record.serverPid, record.serverStartTime))) continue;
      if (record) killed += await killLeftovers(record);
      await unlink(path).catch(() => undefined);
    }
    return killed;
  }

  private async write(path: string, pgid: number, token: string): Promise<boolean> {
    const [server, leader] = await Promise.all([this.server, readProcStat(pgid)]);
    // The group already ended (or /proc is unavailable): nothing to track.
    if (!server || !leader) return false;
    this.ready ??= mkdir(this.dir, { recursive: true }).then(() => undefined);
    await this.ready;
    const record: GroupRecord = {
      token,
      pgid,
      leaderStartTime: leader.startTime,
      serverPid: server.pid,
      serverStartTime: server.startTime,
    };
    const temp = `${path}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(record));
    await rename(temp, path);
    return true;
  }
}

async function readRecord(path: string): Promise<GroupRecord | null> {
  const text = await readFile(path, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const parsed = recordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function killLeftovers(record: GroupRecord): Promise<number> {
  const marker = `${COMMAND_GROUP_ENV}=${record.token}`;
  const killed = new Set<number>();
  for (let round = 0; round < REAP_ROUNDS; round += 1) {
    const members = await processesInGroup(record.pgid);
    const ours: number[] = [];
    for (const member of members) {
      if (member.startTime < record.leaderStartTime) continue;
      if (await hasEnvEntry(member.pid, marker)) ours.push(member.pid);
    }
    if (ours.length === 0) break;
    for (const pid of ours) {
      try {
        process.kill(pid, "SIGKILL");
        killed.add(pid);
      } catch {
        // ESRCH: it ended meanwhile.
      }
    }
  }
  return killed.size;
}

async function hasEnvEntry(pid: number, entry: string): Promise<boolean> {
  const environ = await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
  return environ.split("\0").includes(entry);
}
