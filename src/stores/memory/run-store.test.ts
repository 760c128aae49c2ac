import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AdmissionOptions } from "../../ports/run-store.js";
import type { RunStatus } from "../../ports/run-types.js";
import { MemoryRunStore } from "./run-store.js";

const options: AdmissionOptions = {
  strategy: "reject",
  workerId: "w1",
  now: "2030-01-01T00:00:00.000Z",
  graceSeconds: 10,
};

async function admitted(store: MemoryRunStore, threadId = "t1", runId = "r1") {
  const result = await store.createThreadOperation(
    { run_id: runId, thread_id: threadId, created_at: options.now, metadata: { tags: ["a"] } },
    options,
  );
  if (result.kind !== "admitted") throw new Error("expected an admission");
  return result.row;
}

describe("MemoryRunStore", () => {
  it("put keeps a cancel request that a stale snapshot does not carry", async () => {
    const store = new MemoryRunStore();
    const snapshot = await admitted(store);
    await store.requestCancel("r1", "rollback", "2030-01-01T00:00:05.000Z");
    await store.put({ ...snapshot, status: "running" });
    expect(await store.get("r1")).toMatchObject({
      status: "running",
      cancel_action: "rollback",
      cancel_requested_at: "2030-01-01T00:00:05.000Z",
    });
  });

  it("hands out copies, never its own rows", async () => {
    const store = new MemoryRunStore();
    const row = await admitted(store);
    row.metadata.tags = ["changed"];
    row.status = "success";
    const fetched = await store.get("r1");
    expect(fetched).toMatchObject({ status: "pending", metadata: { tags: ["a"] } });
    if (fetched) fetched.metadata.extra = true;
    expect((await store.get("r1"))?.metadata).toEqual({ tags: ["a"] });
  });

  it("lets a subclass inject faults around its prototype methods", async () => {
    class FailingOnce extends MemoryRunStore {
      failNext = true;
      override async updateStatus(runId: string, status: RunStatus) {
        if (this.failNext) {
          this.failNext = false;
          throw new Error("injected");
        }
        return super.updateStatus(runId, status);
      }
    }
    const store = new FailingOnce();
    await admitted(store);
    await expect(store.updateStatus("r1", "running")).rejects.toThrow("injected");
    expect(await store.updateStatus("r1", "running")).toBe(true);
  });

  it("neither claims nor lists queued rows: they have not started anywhere", async () => {
    const store = new MemoryRunStore();
    await admitted(store);
    await store.createThreadOperation(
      { run_id: "r2", thread_id: "t1", created_at: options.now },
      { ...options, strategy: "enqueue" },
    );
    const now = "2030-01-01T01:00:00.000Z";
    const listed = await store.listInflightWithExpiredLease({ before: now, now, graceSeconds: 10 });
    expect(listed.map((row) => row.run_id)).toEqual(["r1"]);
    const claim = { now, graceSeconds: 10, error: "lost", workerId: "w2" };
    expect(await store.claimForTakeover("r2", claim)).toBe(false);
  });

  describe("timestamps without a zone", () => {
    let previousTz: string | undefined;
    beforeEach(() => {
      previousTz = process.env.TZ;
      process.env.TZ = "America/New_York";
    });
    afterEach(() => {
      if (previousTz === undefined) delete process.env.TZ;
      else process.env.TZ = previousTz;
    });

    it("reads a naive lease as UTC, like the SQL stores", async () => {
      const store = new MemoryRunStore();
      await store.createThreadOperation(
        {
          run_id: "r1",
          thread_id: "t1",
          created_at: options.now,
          lease_expires_at: "2030-01-01 00:01:00",
        },
        options,
      );
      const claim = { graceSeconds: 0, error: "lost", workerId: "w2" };
      expect(await store.claimForTakeover("r1", { ...claim, now: "2030-01-01T00:00:59Z" })).toBe(
        false,
      );
      expect(await store.claimForTakeover("r1", { ...claim, now: "2030-01-01T00:01:01Z" })).toBe(
        true,
      );
    });
  });
});
