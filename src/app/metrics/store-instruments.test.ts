import { describe, expect, it } from "vitest";
import { publishedAtMs } from "./store-instruments.js";

describe("publishedAtMs", () => {
  it("reads the time of a Redis bridge id and nothing else", () => {
    expect(publishedAtMs("1796317862350-0.660c4346b396")).toBe(1796317862350);
    expect(publishedAtMs("42")).toBeNull();
    expect(publishedAtMs("1796317862350-0")).toBeNull();
  });
});
