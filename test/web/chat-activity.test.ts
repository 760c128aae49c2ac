/**
 * The pure parts of the chat stream: sub-agent progress from the `custom` stream and from stored
 * run events, each turn's duration from the thread's runs, and the frame coalescer's rule of at
 * most one update per animation frame.
 */
import { describe, expect, it } from "vitest";
import { FrameCoalescer } from "../../web/src/chat/frame-coalescer.js";
import { groupMessages, turnsOf } from "../../web/src/chat/message-groups.js";
import {
  applyTaskChunk,
  progressFromEvents,
  type SubagentProgressMap,
} from "../../web/src/chat/subagents/subagent-progress.js";
import { formatElapsed } from "../../web/src/chat/usage/elapsed.js";
import { turnDurations } from "../../web/src/chat/usage/turn-durations.js";

describe("sub-agent progress", () => {
  it("follows task_started, task_running and the terminal chunk of the custom stream", () => {
    let map: SubagentProgressMap = new Map();
    map = applyTaskChunk(map, { type: "task_started", task_id: "t1", description: "Survey" }, 1000);
    map = applyTaskChunk(map, { type: "task_running", task_id: "t1", text: "reading" }, 2000);
    expect(map.get("t1")).toMatchObject({
      description: "Survey",
      state: "running",
      startedAt: 1000,
      endedAt: null,
      steps: ["reading"],
    });
    map = applyTaskChunk(map, { type: "task_completed", task_id: "t1", result: "All read." }, 4500);
    expect(map.get("t1")).toMatchObject({ state: "done", endedAt: 4500, result: "All read." });
    const failed = applyTaskChunk(map, { type: "task_timed_out", task_id: "t2", error: "late" }, 9);
    expect(failed.get("t2")).toMatchObject({ state: "timed_out", error: "late" });
  });

  it("leaves the map as it is for chunks that are not a task's", () => {
    const map: SubagentProgressMap = new Map();
    expect(applyTaskChunk(map, { type: "something_else", task_id: "t1" }, 1)).toBe(map);
    expect(applyTaskChunk(map, "text", 1)).toBe(map);
    expect(applyTaskChunk(map, { type: "task_started" }, 1)).toBe(map);
  });

  it("rebuilds the same card from the run's stored subagent.* events, with the server's times", () => {
    const map = progressFromEvents([
      {
        event_type: "subagent.start",
        content: { task_id: "t1", description: "Survey" },
        created_at: "2026-01-01T00:00:00.000Z",
      },
      {
        event_type: "subagent.step",
        content: { task_id: "t1", text: "reading" },
        created_at: "2026-01-01T00:00:01.000Z",
      },
      {
        event_type: "subagent.end",
        content: { task_id: "t1", status: "cancelled", result: null },
        created_at: "2026-01-01T00:00:07.000Z",
      },
    ]);
    const entry = map.get("t1");
    expect(entry).toMatchObject({ state: "cancelled", steps: ["reading"], result: null });
    expect((entry?.endedAt ?? 0) - (entry?.startedAt ?? 0)).toBe(7000);
  });

  it("writes elapsed time as m:ss, and h:mm:ss past an hour", () => {
    expect(formatElapsed(0)).toBe("0:00");
    expect(formatElapsed(65_400)).toBe("1:05");
    expect(formatElapsed(3_725_000)).toBe("1:02:05");
  });
});

describe("turn durations", () => {
  const groups = groupMessages([
    { type: "human", id: "h1", content: "first" },
    { type: "ai", id: "a1", content: "one" },
    { type: "human", id: "h2", content: "second" },
    { type: "ai", id: "a2", content: "", tool_calls: [{ id: "c1", name: "bash", args: {} }] },
  ]);
  const turns = turnsOf(groups);

  it("splits the groups into turns from one user message to the next", () => {
    expect(turns.map((turn) => [turn.humanIndex, turn.lastIndex])).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it("gives a finished run's time to the turn its input message started, a running one's start", () => {
    const times = turnDurations(turns, [
      {
        run_id: "r2",
        status: "running",
        created_at: "2026-01-01T00:01:00.000Z",
        updated_at: "2026-01-01T00:01:00.000Z",
        kwargs: { input: { messages: [{ type: "human", id: "h2", content: "second" }] } },
      },
      {
        run_id: "r1",
        status: "success",
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:12.500Z",
        kwargs: { input: { messages: [{ type: "human", content: "first" }] } },
      },
    ]);
    expect(times.get(1)).toEqual({ state: "finished", ms: 12_500 });
    expect(times.get(3)).toEqual({ state: "running", since: Date.parse("2026-01-01T00:01:00Z") });
  });

  it("shows a regenerated turn's latest run, and nothing for turns no run started", () => {
    const run = (id: string, start: string, end: string) => ({
      run_id: id,
      status: "success",
      created_at: start,
      updated_at: end,
      kwargs: { input: { messages: [{ type: "human", id: "h1", content: "first" }] } },
    });
    const times = turnDurations(turns, [
      run("old", "2026-01-01T00:00:00Z", "2026-01-01T00:00:30Z"),
      run("new", "2026-01-01T00:05:00Z", "2026-01-01T00:05:02Z"),
    ]);
    expect(times.get(1)).toEqual({ state: "finished", ms: 2000 });
    expect(times.has(3)).toBe(false);
  });
});

describe("the frame coalescer", () => {
  it("hands on at most one value per frame: the latest", () => {
    const frames: (() => void)[] = [];
    const applied: number[] = [];
    const coalescer = new FrameCoalescer<number>(
      (value) => applied.push(value),
      (run) => frames.push(run),
      () => undefined,
    );
    for (const value of [1, 2, 3]) coalescer.push(value);
    expect(frames).toHaveLength(1);
    frames.shift()?.();
    expect(applied).toEqual([3]);
    coalescer.push(4);
    coalescer.push(5);
    expect(frames).toHaveLength(1);
    frames.shift()?.();
    expect(applied).toEqual([3, 5]);
  });

  it("applies nothing once disposed", () => {
    const frames: (() => void)[] = [];
    const applied: number[] = [];
    const coalescer = new FrameCoalescer<number>(
      (value) => applied.push(value),
      (run) => frames.push(run) - 1,
      () => frames.splice(0),
    );
    coalescer.push(1);
    coalescer.dispose();
    for (const frame of frames) frame();
    expect(applied).toEqual([]);
  });
});
