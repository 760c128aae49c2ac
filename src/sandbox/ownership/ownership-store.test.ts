import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../core/errors.js";
import { assertValidSandboxId, leaseTtlMs, newOwnerId } from "./ownership-store.js";

describe("ownership store basics", () => {
  it("names owners <hostname>:<uuid hex>", () => {
    expect(newOwnerId()).toMatch(new RegExp(`^${hostname()}:[0-9a-f]{32}$`));
  });

  it("derives the TTL from the renewal interval and refuses a multiplier below 2", () => {
    expect(leaseTtlMs({ renewalIntervalMs: 30_000, ttlMultiplier: 4 })).toBe(120_000);
    expect(() => leaseTtlMs({ renewalIntervalMs: 30_000, ttlMultiplier: 1 })).toThrow(
      ValidationError,
    );
  });

  it("accepts only ids safe as file names and keys", () => {
    expect(assertValidSandboxId("0123abcd_x-y.z")).toBe("0123abcd_x-y.z");
    for (const bad of ["", "..", "a/b", "a b", "x".repeat(129)]) {
      expect(() => assertValidSandboxId(bad), bad).toThrow(ValidationError);
    }
  });
});
