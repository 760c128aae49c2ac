import { describe, expect, it } from "vitest";
import { WeightedLru } from "./weighted-lru.js";

describe("the weighted LRU", () => {
  it("evicts the oldest entries once the total weight is over the bound", () => {
    const lru = new WeightedLru<string, number>(10, (value) => value);
    lru.set("a", 4);
    lru.set("b", 4);
    lru.set("c", 4);
    expect(lru.get("a")).toBeUndefined();
    expect(lru.get("b")).toBe(4);
    expect(lru.get("c")).toBe(4);
    lru.set("huge", 11);
    expect(lru.get("huge")).toBeUndefined();
    expect(lru.get("c")).toBe(4);
  });

  it("keeps an entry that keeps being read while many others pass through", () => {
    const lru = new WeightedLru<string, number>(100, () => 1);
    lru.set("hot", 1);
    for (let i = 0; i < 10_000; i++) {
      lru.set(`cold-${i}`, 1);
      expect(lru.get("hot")).toBe(1);
    }
    expect(lru.get("cold-0")).toBeUndefined();
    expect(lru.get("cold-9999")).toBe(1);
  });

  it("replaces the value of a key that is set again", () => {
    const lru = new WeightedLru<string, number>(10, (value) => value);
    lru.set("a", 2);
    lru.set("a", 3);
    lru.set("b", 7);
    expect(lru.get("a")).toBe(3);
    lru.set("c", 1);
    expect(lru.get("a")).toBeUndefined();
  });
});
