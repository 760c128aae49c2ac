import { describe, expect, it } from "vitest";
import { ManualClock } from "../core/clock.js";
import { LoginRateLimiter } from "./login-rate-limiter.js";

describe("LoginRateLimiter", () => {
  it("blocks a key after maxFailures until the window ends", () => {
    const clock = new ManualClock();
    const limiter = new LoginRateLimiter({ maxFailures: 3, windowMs: 60_000, clock });
    for (let i = 0; i < 3; i++) {
      expect(limiter.check("1.2.3.4")).toEqual({ allowed: true });
      limiter.recordFailure("1.2.3.4");
    }
    expect(limiter.check("1.2.3.4")).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(limiter.check("5.6.7.8")).toEqual({ allowed: true });
    clock.advance(59_500);
    expect(limiter.check("1.2.3.4")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(500);
    expect(limiter.check("1.2.3.4")).toEqual({ allowed: true });
    limiter.recordFailure("1.2.3.4");
    expect(limiter.check("1.2.3.4")).toEqual({ allowed: true });
  });

  it("forgets a key's failures on success", () => {
    const limiter = new LoginRateLimiter({ maxFailures: 2, windowMs: 60_000 });
    limiter.recordFailure("k");
    limiter.recordSuccess("k");
    limiter.recordFailure("k");
    expect(limiter.check("k")).toEqual({ allowed: true });
  });

  it("tracks a bounded number of keys, dropping expired then oldest entries", () => {
    const clock = new ManualClock();
    const limiter = new LoginRateLimiter({ maxFailures: 1, windowMs: 1000, maxKeys: 3, clock });
    limiter.recordFailure("old");
    clock.advance(2000);
    for (const key of ["a", "b", "c"]) limiter.recordFailure(key);
    // "old" had expired, so it went first; a, b, c are all still blocked.
    for (const key of ["a", "b", "c"]) expect(limiter.check(key).allowed).toBe(false);
    limiter.recordFailure("d");
    expect(limiter.check("a").allowed).toBe(true);
    for (const key of ["b", "c", "d"]) expect(limiter.check(key).allowed).toBe(false);
  });
});
