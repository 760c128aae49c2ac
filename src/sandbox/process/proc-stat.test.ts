import { describe, expect, it } from "vitest";
import { parseProcStat, readProcStat } from "./proc-stat.js";

describe("parseProcStat", () => {
  it("reads state, group, session and start time past a command name with spaces and parentheses", () => {
    const line =
      "4242 (we (ird) name) S 1 4240 4239 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 200 18446744073709551615";
    expect(parseProcStat(line)).toEqual({
      pid: 4242,
      state: "S",
      pgrp: 4240,
      session: 4239,
      startTime: 987654,
    });
    expect(parseProcStat("garbage")).toBeNull();
  });

  it("reads this process", async () => {
    const stat = await readProcStat(process.pid);
    expect(stat?.pid).toBe(process.pid);
    expect(stat?.startTime).toBeGreaterThan(0);
  });
});
