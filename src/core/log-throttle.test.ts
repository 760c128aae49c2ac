import { describe, expect, it } from "vitest";
import { LogThrottle } from "./log-throttle.js";

describe("LogThrottle", () => {
  it("logs the first line of a key, then one per interval with the count dropped", () => {
    let now = 0;
    const throttle = new LogThrottle(10_000, () => now);
    expect(throttle.admit("store down")).toBe(0);
    // Twice a second for 9.5 s: all dropped.
    for (now = 500; now < 10_000; now += 500) expect(throttle.admit("store down")).toBeNull();
    expect(throttle.admit("other")).toBe(0);
    now = 10_000;
    expect(throttle.admit("store down")).toBe(19);
    now = 25_000;
    expect(throttle.admit("store down")).toBe(0);
  });
});
