import { describe, expect, it } from "vitest";
import {
  capMaxResults,
  effectiveMaxResults,
  GLOB_RESULT_LIMITS,
  GREP_RESULT_LIMITS,
} from "./search-limits.js";

describe("effectiveMaxResults", () => {
  it("takes the smaller of requested and configured, defaulting and capping each", () => {
    expect(effectiveMaxResults(undefined, undefined, GLOB_RESULT_LIMITS)).toBe(200);
    expect(effectiveMaxResults(50, undefined, GLOB_RESULT_LIMITS)).toBe(50);
    expect(effectiveMaxResults(5_000, undefined, GLOB_RESULT_LIMITS)).toBe(200);
    expect(effectiveMaxResults(5_000, 800, GLOB_RESULT_LIMITS)).toBe(800);
    expect(effectiveMaxResults(300, 20, GLOB_RESULT_LIMITS)).toBe(20);
    expect(effectiveMaxResults(0, -1, GREP_RESULT_LIMITS)).toBe(100);
    expect(effectiveMaxResults(900, 700, GREP_RESULT_LIMITS)).toBe(500);
  });
});

describe("capMaxResults", () => {
  it("defaults a missing value and caps a large one", () => {
    expect(capMaxResults(undefined, GLOB_RESULT_LIMITS)).toBe(200);
    expect(capMaxResults(5_000, GLOB_RESULT_LIMITS)).toBe(1000);
    expect(capMaxResults(350, GREP_RESULT_LIMITS)).toBe(350);
  });
});
