import { z } from "zod";
import { ValidationError } from "../../core/errors.js";
import type { Json } from "../../core/json/serialize.js";

/** The reference's bounds: an objective of at most 4,000 characters, at most 8 continuations. */
export const MAX_GOAL_OBJECTIVE_CHARS = 4000;
export const MAX_GOAL_CONTINUATIONS = 8;
const MAX_NO_PROGRESS_CONTINUATIONS = 2;

export const goalRequestBody = z.object({
  objective: z.string().min(1).max(MAX_GOAL_OBJECTIVE_CHARS),
  max_continuations: z.number().int().min(0).max(MAX_GOAL_CONTINUATIONS).optional(),
});

/**
 * A thread's goal as the reference keeps it in the thread state's `goal` channel (its web UI
 * shows `values.goal` above the composer). Only `active` goals exist: clearing writes null.
 */
export interface ThreadGoal {
  objective: string;
  status: "active";
  created_at: string;
  updated_at: string;
  continuation_count: number;
  max_continuations: number;
  no_progress_count: number;
  max_no_progress_continuations: number;
  [key: string]: Json;
}

/** A fresh active goal; the objective's whitespace is collapsed, as the reference does. */
export function newThreadGoal(
  objective: string,
  maxContinuations: number | undefined,
  now: string,
): ThreadGoal {
  const normalized = objective.trim().split(/\s+/).join(" ");
  if (normalized === "") {
    throw new ValidationError("Goal objective must not be empty; send the condition to pursue.");
  }
  return {
    objective: normalized,
    status: "active",
    created_at: now,
    updated_at: now,
    continuation_count: 0,
    max_continuations: maxContinuations ?? MAX_GOAL_CONTINUATIONS,
    no_progress_count: 0,
    max_no_progress_continuations: MAX_NO_PROGRESS_CONTINUATIONS,
  };
}

/** The state's `goal` when it is an active goal object, else null. */
export function activeGoalOf(values: Record<string, Json>): Record<string, Json> | null {
  const goal = values.goal;
  if (typeof goal !== "object" || goal === null || Array.isArray(goal)) return null;
  return goal.status === "active" ? goal : null;
}
