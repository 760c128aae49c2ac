/**
 * CPU time per OS thread of this process, from /proc (Linux only; elsewhere empty). Benchmarks
 * read it to see how busy the main thread and a worker thread were, a figure that moves far less
 * with other load on the machine than wall time does.
 */
import { readdir, readFile } from "node:fs/promises";

/** Clock ticks per second for /proc times (USER_HZ; 100 on every common Linux build). */
const TICKS_PER_SECOND = 100;

export type ThreadCpu = Map<number, { name: string; ms: number }>;

export async function threadCpu(): Promise<ThreadCpu> {
  const result: ThreadCpu = new Map();
  let tasks: string[];
  try {
    tasks = await readdir("/proc/self/task");
  } catch {
    return result;
  }
  for (const task of tasks) {
    try {
      const stat = await readFile(`/proc/self/task/${task}/stat`, "utf8");
      // The name is in parentheses and may hold spaces; the fields after it are fixed.
      const close = stat.lastIndexOf(")");
      const name = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]);
      result.set(Number(task), { name, ms: (ticks * 1000) / TICKS_PER_SECOND });
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return result;
}

/** CPU ms each thread spent between two readings, busiest first (main thread = process id). */
export function threadCpuSince(
  before: ThreadCpu,
  after: ThreadCpu,
): Array<{ tid: number; name: string; ms: number; main: boolean }> {
  return [...after]
    .map(([tid, now]) => ({
      tid,
      name: now.name,
      ms: now.ms - (before.get(tid)?.ms ?? 0),
      main: tid === process.pid,
    }))
    .filter((entry) => entry.ms > 0)
    .sort((a, b) => b.ms - a.ms);
}

/** CPU ms (user + system, all threads) a process has used so far; null where /proc is absent. */
export async function processCpuMs(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** A process's resident set size in bytes now (VmRSS, no collection first); null without /proc. */
export async function processRssBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
