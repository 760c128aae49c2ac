import { describe, expect, it } from "vitest";
import { SingleFlight } from "./single-flight.js";

function deferred<T>(): {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve: (v: T) => void = () => undefined;
  let reject: (e: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("SingleFlight", () => {
  it("runs the work once for concurrent callers of the same key", async () => {
    const flight = new SingleFlight<string, number>();
    const gate = deferred<number>();
    let calls = 0;
    const work = (): Promise<number> => {
      calls += 1;
      return gate.promise;
    };
    const first = flight.run("a", work);
    const second = flight.run("a", work);
    expect(flight.has("a")).toBe(true);
    gate.resolve(7);
    await expect(Promise.all([first, second])).resolves.toEqual([7, 7]);
    expect(calls).toBe(1);
  });

  it("keeps different keys apart", async () => {
    const flight = new SingleFlight<string, string>();
    const results = await Promise.all([
      flight.run("a", async () => "A"),
      flight.run("b", async () => "B"),
    ]);
    expect(results).toEqual(["A", "B"]);
  });

  it("forgets the key once settled, so the next call runs fresh", async () => {
    const flight = new SingleFlight<string, number>();
    let calls = 0;
    const work = async (): Promise<number> => {
      calls += 1;
      return calls;
    };
    await expect(flight.run("a", work)).resolves.toBe(1);
    expect(flight.size).toBe(0);
    await expect(flight.run("a", work)).resolves.toBe(2);
  });

  it("shares a failure with every waiter and does not cache it", async () => {
    const flight = new SingleFlight<string, number>();
    const gate = deferred<number>();
    const failure = new Error("lookup failed");
    const first = flight.run("a", () => gate.promise);
    const second = flight.run("a", () => gate.promise);
    gate.reject(failure);
    await expect(first).rejects.toBe(failure);
    await expect(second).rejects.toBe(failure);
    expect(flight.has("a")).toBe(false);
    await expect(flight.run("a", async () => 1)).resolves.toBe(1);
  });

  it("turns a synchronous throw into a rejection", async () => {
    const flight = new SingleFlight<string, number>();
    const failure = new Error("sync");
    await expect(
      flight.run("a", () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(flight.size).toBe(0);
  });
});
