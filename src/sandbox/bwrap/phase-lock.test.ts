import { describe, expect, it } from "vitest";
import { Latch, tick } from "../../../test/helpers/latch.js";
import { PhaseLock } from "./phase-lock.js";

describe("PhaseLock", () => {
  it("runs callers of one phase together and never two phases at once", async () => {
    const lock = new PhaseLock<"exec" | "files">();
    const log: string[] = [];
    const gate = new Latch();
    const execA = lock.run("exec", async () => {
      log.push("exec-a start");
      await gate.wait();
      log.push("exec-a end");
    });
    const execB = lock.run("exec", async () => {
      log.push("exec-b");
    });
    const files = lock.run("files", async () => {
      log.push("files");
    });
    // A later exec must not overtake the waiting files phase.
    const execC = lock.run("exec", async () => {
      log.push("exec-c");
    });
    await tick();
    expect(log).toEqual(["exec-a start", "exec-b"]);
    gate.set();
    await Promise.all([execA, execB, files, execC]);
    expect(log).toEqual(["exec-a start", "exec-b", "exec-a end", "files", "exec-c"]);
  });

  it("lets a waiter give up on abort", async () => {
    const lock = new PhaseLock<"exec" | "files">();
    const gate = new Latch();
    const holder = lock.run("exec", () => gate.wait());
    const controller = new AbortController();
    const waiter = lock.run("files", async () => "ran", controller.signal);
    controller.abort(new Error("gave up"));
    await expect(waiter).rejects.toThrow("gave up");
    gate.set();
    await holder;
    await expect(lock.run("files", async () => "free")).resolves.toBe("free");
  });
});
