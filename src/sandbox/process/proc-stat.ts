import { readdir, readFile } from "node:fs/promises";

/** The few fields of `/proc/<pid>/stat` that identify a process and its group. */
export interface ProcStat {
  pid: number;
  /** `R`, `S`, `Z` (zombie: dead, waiting to be reaped)… */
  state: string;
  pgrp: number;
  session: number;
  /**
   * Clock ticks after boot at which the process started. With the pid it names one process for
   * the life of the machine: a reused pid has a later start time.
   */
  startTime: number;
}

/** A process's stat line, or null when there is no such process (or it cannot be read). */
export async function readProcStat(pid: number): Promise<ProcStat | null> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  return text === null ? null : parseProcStat(text);
}

/** `pid (comm) state ppid pgrp session … starttime …`; comm may hold spaces and parentheses. */
export function parseProcStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(")");
  const pid = Number.parseInt(text, 10);
  if (close < 0 || !Number.isSafeInteger(pid)) return null;
  // fields[0] is field 3 of proc(5) (state); starttime is field 22.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(" ");
  const [state, , pgrp, session] = fields;
  const startTime = Number(fields[19]);
  if (state === undefined || !Number.isSafeInteger(startTime)) return null;
  return { pid, state, pgrp: Number(pgrp), session: Number(session), startTime };
}

/** Whether the process `pid` that started at `startTime` still runs (a zombie does not). */
export async function isSameProcessAlive(pid: number, startTime: number): Promise<boolean> {
  const stat = await readProcStat(pid);
  return stat !== null && stat.state !== "Z" && stat.startTime === startTime;
}

/** The live (non-zombie) processes whose process group is `pgid`. */
export async function processesInGroup(pgid: number): Promise<ProcStat[]> {
  const names = await readdir("/proc").catch(() => []);
  const stats = await Promise.all(
    names.filter((name) => /^\d+$/.test(name)).map((name) => readProcStat(Number(name))),
  );
  return stats.filter(
    (stat): stat is ProcStat => stat !== null && stat.pgrp === pgid && stat.state !== "Z",
  );
}
