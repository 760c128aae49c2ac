/** The run phase table: every legal transition is taken, every illegal one is refused. */
import { describe, expect, it } from "vitest";
import { FawnError } from "../../src/core/errors.js";
import {
  isLegalTransition,
  PHASE_TRANSITIONS,
  phaseStatus,
  RUN_PHASE_KINDS,
  type RunPhase,
  type RunPhaseKind,
  transition,
} from "../../src/runtime/lifecycle/run-phase.js";

/** One representative phase of each kind. */
const SAMPLE: Record<RunPhaseKind, RunPhase> = {
  queued: { kind: "queued" },
  pending: { kind: "pending" },
  running: { kind: "running" },
  staged: { kind: "staged", outcome: "error", proof: { status: "interrupted" }, restoring: true },
  settled: { kind: "settled", status: "success", proof: { status: "success" } },
  fenced: { kind: "fenced", reason: "lease lost", proof: null },
  observed: { kind: "observed", status: "running" },
};

const pairs = RUN_PHASE_KINDS.flatMap((from) => RUN_PHASE_KINDS.map((to) => [from, to] as const));

describe("run phase transitions", () => {
  it("lists every phase kind once, each with a row in the table", () => {
    expect(new Set(RUN_PHASE_KINDS).size).toBe(RUN_PHASE_KINDS.length);
    expect(Object.keys(PHASE_TRANSITIONS).sort()).toEqual([...RUN_PHASE_KINDS].sort());
    for (const targets of Object.values(PHASE_TRANSITIONS)) {
      for (const to of targets) expect(RUN_PHASE_KINDS).toContain(to);
    }
  });

  const legal = pairs.filter(([from, to]) => PHASE_TRANSITIONS[from].includes(to));
  const illegal = pairs.filter(([from, to]) => !PHASE_TRANSITIONS[from].includes(to));

  it.each(legal)("allows %s → %s", (from, to) => {
    expect(isLegalTransition(from, to)).toBe(true);
    expect(transition(SAMPLE[from], SAMPLE[to])).toBe(SAMPLE[to]);
  });

  it.each(illegal)("refuses %s → %s", (from, to) => {
    expect(isLegalTransition(from, to)).toBe(false);
    expect(() => transition(SAMPLE[from], SAMPLE[to])).toThrow(FawnError);
    expect(() => transition(SAMPLE[from], SAMPLE[to])).toThrow(`${from} → ${to}`);
  });

  it("never goes back to waiting and never leaves a fenced or observed run", () => {
    for (const from of RUN_PHASE_KINDS) {
      expect(isLegalTransition(from, "queued")).toBe(false);
      expect(isLegalTransition(from, "observed")).toBe(false);
    }
    expect(PHASE_TRANSITIONS.fenced).toEqual([]);
    expect(PHASE_TRANSITIONS.observed).toEqual([]);
    expect(isLegalTransition("running", "pending")).toBe(false);
    expect(isLegalTransition("queued", "running")).toBe(false);
  });

  it("derives the LangGraph status from the phase", () => {
    expect(phaseStatus(SAMPLE.queued)).toBe("pending");
    expect(phaseStatus(SAMPLE.pending)).toBe("pending");
    expect(phaseStatus(SAMPLE.running)).toBe("running");
    expect(phaseStatus(SAMPLE.staged)).toBe("error");
    expect(phaseStatus(SAMPLE.settled)).toBe("success");
    expect(phaseStatus(SAMPLE.fenced)).toBe("error");
    expect(phaseStatus(SAMPLE.observed)).toBe("running");
  });
});
