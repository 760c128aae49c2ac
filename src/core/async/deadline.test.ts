import { describe, expect, it } from "vitest";
import { DeadlineExceededError } from "../errors.js";
import { sleep, withDeadline } from "./deadline.js";

describe("withDeadline", () => {
  it("passes through a value that arrives in time", async () => {
    await expect(withDeadline(Promise.resolve(42), 1_000)).resolves.toBe(42);
  });

  it("passes through the work's own failure", async () => {
    const failure = new Error("boom");
    await expect(withDeadline(Promise.reject(failure), 1_000)).rejects.toBe(failure);
  });

  it("turns a synchronous throw of the work function into a rejection", async () => {
    const failure = new Error("sync boom");
    const work = (): Promise<number> => {
      throw failure;
    };
    await expect(withDeadline(work, 1_000)).rejects.toBe(failure);
  });

  it("rejects with DeadlineExceededError carrying the given message", async () => {
    const never = new Promise<never>(() => undefined);
    const error = await withDeadline(never, 5, "store write took too long").catch((e) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error.message).toBe("store write took too long");
  });

  it("aborts the inner signal with the same error", async () => {
    let observed: AbortSignal | undefined;
    const work = (signal: AbortSignal): Promise<void> => {
      observed = signal;
      return new Promise<void>(() => undefined);
    };
    const error = await withDeadline(work, 5).catch((e) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(observed?.aborted).toBe(true);
    expect(observed?.reason).toBe(error);
  });

  it("leaves the inner signal alone when the work finishes first", async () => {
    let observed: AbortSignal | undefined;
    const value = await withDeadline(async (signal) => {
      observed = signal;
      return "done";
    }, 1_000);
    expect(value).toBe("done");
    expect(observed?.aborted).toBe(false);
  });
});

describe("sleep", () => {
  it("resolves without a signal", async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it("rejects with the reason of an already aborted signal", async () => {
    const reason = new Error("stop");
    await expect(sleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it("rejects with the signal's reason when aborted while sleeping", async () => {
    const controller = new AbortController();
    const reason = new Error("shutdown");
    const sleeping = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
  });
});
