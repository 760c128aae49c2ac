/** The LoginAttemptStore contract on the memory adapter, plus its bound on tracked counters. */
import { describe, expect, it } from "vitest";
import { MemoryLoginAttemptStore } from "../../src/stores/memory/login-attempt-store.js";
import { describeLoginAttemptStore } from "../conformance/login-attempt-store.js";

describeLoginAttemptStore("memory", async () => ({ store: new MemoryLoginAttemptStore() }));

describe("MemoryLoginAttemptStore", () => {
  it("tracks a bounded number of counters, dropping expired then oldest entries", async () => {
    const store = new MemoryLoginAttemptStore({ maxKeys: 3 });
    const take = (key: string, now: number) => store.take([{ key, limit: 1 }], 1000, now);
    await take("old", 0);
    for (const key of ["a", "b", "c"]) await take(key, 2000);
    // "old" had expired, so it went first; a, b, c are all still full.
    for (const key of ["a", "b", "c"]) expect((await take(key, 2000)).allowed).toBe(false);
    await take("d", 2000);
    for (const key of ["b", "c", "d"]) expect((await take(key, 2000)).allowed).toBe(false);
    // "a", the oldest live counter, was forgotten to make room for "d".
    expect((await take("a", 2000)).allowed).toBe(true);
  });
});
