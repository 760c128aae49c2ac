/** Result limits of glob and grep. */
export interface ResultLimits {
  /** Used when a value is missing or ≤ 0. */
  defaultMax: number;
  /** No value may go above this. */
  cap: number;
}

export const GLOB_RESULT_LIMITS: ResultLimits = { defaultMax: 200, cap: 1000 };
export const GREP_RESULT_LIMITS: ResultLimits = { defaultMax: 100, cap: 500 };

/**
 * min(requested, configured), where a missing or ≤ 0 value means the default and each value is
 * capped: the model may ask for fewer results than the operator allows, never for more.
 */
export function effectiveMaxResults(
  requested: number | undefined,
  configured: number | undefined,
  limits: ResultLimits,
): number {
  return Math.min(capMaxResults(requested, limits), capMaxResults(configured, limits));
}

/** One value: the default when missing or ≤ 0, else at most the cap. */
export function capMaxResults(value: number | undefined, limits: ResultLimits): number {
  return value === undefined || !Number.isFinite(value) || value <= 0
    ? limits.defaultMax
    : Math.min(Math.floor(value), limits.cap);
}
