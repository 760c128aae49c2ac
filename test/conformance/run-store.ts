/**
 * The RunStore contract as executable spec. Every adapter's test calls `describeRunStore` once;
 * an adapter is done when the whole block passes. Tests use fresh random ids, explicit times and
 * filter global listings down to their own rows, so a shared database works.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConflictError, OwnershipLostError } from "../../src/core/errors.js";
import type { AdmissionOptions, NewThreadOperation, RunStore } from "../../src/ports/run-store.js";
import {
  type CancelAction,
  type MultitaskStrategy,
  ORPHAN_RECOVERY_STOP_REASON,
  type RunRow,
  type RunStatus,
} from "../../src/ports/run-types.js";

export interface RunStoreFixture {
  store: RunStore;
  /** Defaults to `store.close()`. */
  cleanup?: () => Promise<void>;
}

const EPOCH = Date.parse("2030-01-01T00:00:00.000Z");
const WORKER = "worker-a";
const PEER = "worker-b";
const GRACE_SECONDS = 10;

/** A fixed instant `seconds` after the suite's epoch: leases are tested by time, never by sleep. */
export function at(seconds: number): string {
  return new Date(EPOCH + seconds * 1000).toISOString();
}

export function newId(): string {
  return randomUUID();
}

/** Timestamps compared as instants, since adapters may render the same instant differently. */
function normalized(row: RunRow | null): Record<string, unknown> | null {
  if (row === null) return null;
  const instant = (value: string | null) => (value === null ? null : Date.parse(value));
  return {
    ...row,
    created_at: instant(row.created_at),
    updated_at: instant(row.updated_at),
    lease_expires_at: instant(row.lease_expires_at),
    cancel_requested_at: instant(row.cancel_requested_at),
  };
}

function expectSameInstant(actual: string | null | undefined, expected: string): void {
  expect(actual == null ? null : Date.parse(actual)).toBe(Date.parse(expected));
}

export function describeRunStore(name: string, makeStore: () => Promise<RunStoreFixture>): void {
  describe(`RunStore contract: ${name}`, () => {
    let fixture: RunStoreFixture;
    let store: RunStore;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });

    afterEach(async () => {
      await (fixture.cleanup ? fixture.cleanup() : fixture.store.close());
    });

    function operation(
      threadId: string,
      input: Partial<NewThreadOperation> = {},
    ): NewThreadOperation {
      return { run_id: newId(), thread_id: threadId, created_at: at(0), ...input };
    }

    function admission(options: Partial<AdmissionOptions> = {}): AdmissionOptions {
      return {
        strategy: "reject",
        workerId: WORKER,
        now: at(0),
        graceSeconds: GRACE_SECONDS,
        ...options,
      };
    }

    async function admit(
      threadId: string,
      input: Partial<NewThreadOperation> = {},
      options: Partial<AdmissionOptions> = {},
    ): Promise<RunRow> {
      const result = await store.createThreadOperation(
        operation(threadId, input),
        admission(options),
      );
      if (result.kind !== "admitted") throw new Error(`expected an admission, got ${result.kind}`);
      return result.row;
    }

    /** A row on a fresh thread, driven through the public API into `status`. */
    async function rowIn(
      status: RunStatus,
      input: Partial<NewThreadOperation> = {},
    ): Promise<RunRow> {
      const row = await admit(newId(), input);
      if (status === "pending") return row;
      if (status !== "interrupted") expect(await store.startRun(row.run_id, at(1))).toBe(true);
      if (status !== "running") expect(await store.updateStatus(row.run_id, status)).toBe(true);
      return must(await store.get(row.run_id));
    }

    async function statusOf(runId: string): Promise<RunStatus | undefined> {
      return (await store.get(runId))?.status;
    }

    describe("createThreadOperation", () => {
      it("admits a pending run row that get returns unchanged", async () => {
        const threadId = newId();
        const userId = newId();
        const input = operation(threadId, {
          user_id: userId,
          assistant_id: "lead_agent",
          model_name: "demo",
          multitask_strategy: "reject",
          on_disconnect: "continue",
          metadata: { source: "test", nested: { list: [1, "two"] } },
          kwargs: { input: { messages: [] } },
          follow_up_to_run_id: "run-before",
          owner_worker_id: WORKER,
          lease_expires_at: at(30),
        });
        const result = await store.createThreadOperation(input, admission());
        expect(result.kind).toBe("admitted");
        if (result.kind !== "admitted") return;
        expect(result.interrupted).toEqual([]);
        expect(result.row).toMatchObject({
          run_id: input.run_id,
          thread_id: threadId,
          user_id: userId,
          assistant_id: "lead_agent",
          model_name: "demo",
          status: "pending",
          queued: false,
          operation_kind: "run",
          multitask_strategy: "reject",
          on_disconnect: "continue",
          metadata: { source: "test", nested: { list: [1, "two"] } },
          kwargs: { input: { messages: [] } },
          follow_up_to_run_id: "run-before",
          idempotency_key: null,
          error: null,
          stop_reason: null,
          owner_worker_id: WORKER,
          cancel_action: null,
          cancel_requested_at: null,
          evidence_seal_state: "pending",
          evidence_seal_error: null,
          evidence_upper_seq: null,
          evidence_event_count: null,
          message_count: 0,
          total_tokens: 0,
          llm_call_count: 0,
          token_usage_by_model: {},
          first_human_message: null,
          last_ai_message: null,
        });
        expectSameInstant(result.row.created_at, at(0));
        expectSameInstant(result.row.lease_expires_at, at(30));
        expect(normalized(await store.get(input.run_id))).toEqual(normalized(result.row));
      });

      it("a request that leaves out on_disconnect and its strategy gets continue and the admission's strategy", async () => {
        for (const strategy of ["reject", "enqueue", "interrupt"] as MultitaskStrategy[]) {
          const row = await admit(newId(), {}, { strategy });
          expect(row).toMatchObject({ on_disconnect: "continue", multitask_strategy: strategy });
          expect(await store.get(row.run_id)).toMatchObject({
            on_disconnect: "continue",
            multitask_strategy: strategy,
          });
        }
        const explicit = await admit(newId(), { on_disconnect: "cancel" });
        expect((await store.get(explicit.run_id))?.on_disconnect).toBe("cancel");
      });

      it("starts non-run operations without an evidence seal state", async () => {
        const row = await admit(newId(), { operation_kind: "checkpoint_write" });
        expect(row.operation_kind).toBe("checkpoint_write");
        expect(row.evidence_seal_state).toBeNull();
      });

      it("reject: refuses a second active row on the thread and writes nothing", async () => {
        const threadId = newId();
        const first = await admit(threadId);
        const second = operation(threadId);
        await expect(store.createThreadOperation(second, admission())).rejects.toBeInstanceOf(
          ConflictError,
        );
        expect(await store.get(second.run_id)).toBeNull();
        expect(await statusOf(first.run_id)).toBe("pending");
        expect(await store.startRun(first.run_id, at(1))).toBe(true);
        await expect(
          store.createThreadOperation(operation(threadId), admission()),
        ).rejects.toBeInstanceOf(ConflictError);
      });

      it("reject: admits again once the active row has ended, and threads are independent", async () => {
        const threadId = newId();
        const first = await admit(threadId);
        await admit(newId());
        expect(await store.updateStatus(first.run_id, "success")).toBe(true);
        const second = await admit(threadId);
        expect(second.status).toBe("pending");
      });

      for (const strategy of ["interrupt", "rollback"] as const) {
        const claimable = [
          { label: "a NULL lease of another worker", owner: PEER, lease: null },
          { label: "an expired lease of another worker", owner: PEER, lease: at(-60) },
          { label: "a live lease of the admitting worker", owner: WORKER, lease: at(60) },
        ];
        for (const { label, owner, lease } of claimable) {
          it(`${strategy}: interrupts an active row with ${label} and takes it over`, async () => {
            const threadId = newId();
            const old = await admit(threadId, { owner_worker_id: owner, lease_expires_at: lease });
            expect(await store.startRun(old.run_id, at(0))).toBe(true);
            const result = await store.createThreadOperation(
              operation(threadId, { created_at: at(1) }),
              admission({ strategy, now: at(1) }),
            );
            expect(result.kind).toBe("admitted");
            if (result.kind !== "admitted") return;
            expect(result.row.status).toBe("pending");
            expect(result.interrupted.map((row) => row.run_id)).toEqual([old.run_id]);
            const expected = {
              status: "interrupted",
              error: "Cancelled by newer run",
              owner_worker_id: WORKER,
            };
            expect(result.interrupted[0]).toMatchObject(expected);
            expect(await store.get(old.run_id)).toMatchObject(expected);
          });
        }

        it(`${strategy}: a live lease of another worker is a conflict and nothing changes`, async () => {
          // Expired by five seconds but inside the grace window: still live.
          for (const lease of [at(60), at(-5)]) {
            const old = await admit(newId(), { owner_worker_id: PEER, lease_expires_at: lease });
            const before = await store.get(old.run_id);
            const next = operation(old.thread_id);
            await expect(
              store.createThreadOperation(next, admission({ strategy })),
            ).rejects.toBeInstanceOf(ConflictError);
            expect(normalized(await store.get(old.run_id))).toEqual(normalized(before));
            expect(await store.get(next.run_id)).toBeNull();
          }
        });

        it(`${strategy}: an active non-run row with a live or NULL lease is a conflict`, async () => {
          for (const lease of [null, at(60)]) {
            const reservation = await admit(newId(), {
              operation_kind: "checkpoint_write",
              owner_worker_id: WORKER,
              lease_expires_at: lease,
            });
            const next = operation(reservation.thread_id);
            await expect(
              store.createThreadOperation(next, admission({ strategy })),
            ).rejects.toBeInstanceOf(ConflictError);
            expect(await statusOf(reservation.run_id)).toBe("pending");
            expect(await store.get(next.run_id)).toBeNull();
          }
        });

        it(`${strategy}: an active non-run row with an expired lease is interrupted`, async () => {
          const reservation = await admit(newId(), {
            operation_kind: "artifact_write",
            owner_worker_id: PEER,
            lease_expires_at: at(-60),
          });
          const row = await admit(reservation.thread_id, {}, { strategy });
          expect(row.status).toBe("pending");
          expect(await store.get(reservation.run_id)).toMatchObject({
            status: "interrupted",
            error: "Cancelled by newer run",
          });
        });
      }

      it("an existing idempotency key replays the original run and writes nothing", async () => {
        const threadId = newId();
        const key = `key-${newId()}`;
        const original = await admit(threadId, { idempotency_key: key, user_id: "owner" });
        for (const strategy of ["reject", "interrupt", "enqueue"] as MultitaskStrategy[]) {
          const again = operation(newId(), { idempotency_key: key, user_id: "someone-else" });
          const result = await store.createThreadOperation(again, admission({ strategy }));
          expect(result.kind).toBe("idempotent_replay");
          expect(result.row.run_id).toBe(original.run_id);
          expect(result.row.thread_id).toBe(threadId);
          expect(result.row.user_id).toBe("owner");
          expect(await store.get(again.run_id)).toBeNull();
        }
        const sameThread = operation(threadId, { idempotency_key: key });
        const replay = await store.createThreadOperation(
          sameThread,
          admission({ strategy: "interrupt" }),
        );
        expect(replay.kind).toBe("idempotent_replay");
        expect(await statusOf(original.run_id)).toBe("pending");
        expect((await store.getByIdempotencyKey(key))?.run_id).toBe(original.run_id);
        expect(await store.getByIdempotencyKey(`key-${newId()}`)).toBeNull();
      });
    });

    describe("enqueue and promoteNextQueued", () => {
      it("enqueue on an idle thread admits an ordinary active row", async () => {
        const row = await admit(newId(), {}, { strategy: "enqueue" });
        expect(row).toMatchObject({ status: "pending", queued: false });
        expect(await store.startRun(row.run_id, at(1))).toBe(true);
      });

      it("enqueue on a busy thread adds a queued pending row that does not hold the slot", async () => {
        const threadId = newId();
        const active = await admit(threadId);
        const waiting = await admit(threadId, { created_at: at(1) }, { strategy: "enqueue" });
        expect(waiting).toMatchObject({ status: "pending", queued: true });
        expect(await store.get(waiting.run_id)).toMatchObject({ status: "pending", queued: true });
        expect(await store.startRun(waiting.run_id, at(2))).toBe(false);
        expect(await store.startRun(active.run_id, at(2))).toBe(true);
        expect(await store.updateStatus(active.run_id, "success")).toBe(true);
        // The queued row is not an active row: a reject admission is not blocked by it.
        const next = await admit(threadId, { created_at: at(3) });
        expect(next.status).toBe("pending");
        expect(await store.get(waiting.run_id)).toMatchObject({ status: "pending", queued: true });
      });

      it("promotes the oldest queued run only while the thread has no active row", async () => {
        const threadId = newId();
        const active = await admit(threadId);
        const second = await admit(threadId, { created_at: at(2) }, { strategy: "enqueue" });
        const first = await admit(threadId, { created_at: at(1) }, { strategy: "enqueue" });
        expect(await store.promoteNextQueued(threadId)).toBeNull();

        expect(await store.updateStatus(active.run_id, "success")).toBe(true);
        const promoted = await store.promoteNextQueued(threadId);
        expect(promoted).toMatchObject({ run_id: first.run_id, status: "pending", queued: false });
        expect(await store.get(first.run_id)).toMatchObject({ queued: false });
        expect(await store.promoteNextQueued(threadId)).toBeNull();
        expect(await store.startRun(first.run_id, at(3))).toBe(true);

        expect(await store.updateStatus(first.run_id, "error", { error: "boom" })).toBe(true);
        expect((await store.promoteNextQueued(threadId))?.run_id).toBe(second.run_id);
        expect(await store.updateStatus(second.run_id, "success")).toBe(true);
        expect(await store.promoteNextQueued(threadId)).toBeNull();
        expect(await store.promoteNextQueued(newId())).toBeNull();
      });
      it("an interrupt or rollback admission supersedes queued runs too", async () => {
        for (const strategy of ["interrupt", "rollback"] as MultitaskStrategy[]) {
          const threadId = newId();
          const active = await admit(threadId);
          const waiting = await admit(threadId, { created_at: at(1) }, { strategy: "enqueue" });
          const newer = await admit(threadId, { created_at: at(2) }, { strategy });
          expect(newer).toMatchObject({ status: "pending", queued: false });
          expect(await store.get(active.run_id)).toMatchObject({ status: "interrupted" });
          expect(await store.get(waiting.run_id)).toMatchObject({ status: "interrupted" });
          expect(await store.promoteNextQueued(threadId)).toBeNull();
        }
      });
      it("rows an interrupting admission supersedes leave the queue", async () => {
        const threadId = newId();
        await admit(threadId);
        const waiting = await admit(threadId, { created_at: at(1) }, { strategy: "enqueue" });
        const result = await store.createThreadOperation(
          operation(threadId, { created_at: at(2) }),
          admission({ strategy: "interrupt" }),
        );
        if (result.kind !== "admitted")
          throw new Error(`expected an admission, got ${result.kind}`);
        const superseded = result.interrupted.find((row) => row.run_id === waiting.run_id);
        expect(superseded).toMatchObject({ status: "interrupted", queued: false });
        expect(await store.get(waiting.run_id)).toMatchObject({
          status: "interrupted",
          queued: false,
        });
        // Once the newer run is done the thread is idle: a later enqueue does not wait.
        expect(await store.updateStatus(result.row.run_id, "success")).toBe(true);
        const next = await admit(threadId, { created_at: at(3) }, { strategy: "enqueue" });
        expect(next).toMatchObject({ status: "pending", queued: false });
      });
    });

    describe("reads and owner scoping", () => {
      it("get filters by owner only when a user id is given", async () => {
        const row = await admit(newId(), { user_id: "alice" });
        expect((await store.get(row.run_id, { userId: "alice" }))?.run_id).toBe(row.run_id);
        expect(await store.get(row.run_id, { userId: "mallory" })).toBeNull();
        expect((await store.get(row.run_id, { userId: null }))?.run_id).toBe(row.run_id);
        expect((await store.get(row.run_id))?.run_id).toBe(row.run_id);
        expect(await store.get(newId())).toBeNull();
      });

      it("listByThread returns kind=run rows newest first with limit, offset, owner and status", async () => {
        const threadId = newId();
        const ids: string[] = [];
        for (const [second, user, status] of [
          [1, "alice", "success"],
          [2, "bob", "error"],
          [3, "alice", "success"],
        ] as const) {
          const row = await admit(threadId, { created_at: at(second), user_id: user });
          expect(await store.updateStatus(row.run_id, status)).toBe(true);
          ids.push(row.run_id);
        }
        await admit(threadId, { created_at: at(4), operation_kind: "checkpoint_write" });
        const [oldest, middle, newest] = ids;
        const idsOf = (rows: RunRow[]) => rows.map((row) => row.run_id);

        expect(idsOf(await store.listByThread(threadId))).toEqual([newest, middle, oldest]);
        expect(idsOf(await store.listByThread(threadId, { limit: 2 }))).toEqual([newest, middle]);
        expect(idsOf(await store.listByThread(threadId, { limit: 1, offset: 1 }))).toEqual([
          middle,
        ]);
        expect(idsOf(await store.listByThread(threadId, { userId: "alice" }))).toEqual([
          newest,
          oldest,
        ]);
        expect(await store.listByThread(threadId, { userId: "mallory" })).toEqual([]);
        expect(idsOf(await store.listByThread(threadId, { status: "error" }))).toEqual([middle]);
        expect(await store.listByThread(newId())).toEqual([]);
      });

      it("delete is owner-scoped", async () => {
        const row = await admit(newId(), { user_id: "alice" });
        expect(await store.delete(row.run_id, { userId: "mallory" })).toBe(false);
        expect(await store.get(row.run_id)).not.toBeNull();
        expect(await store.delete(row.run_id, { userId: "alice" })).toBe(true);
        expect(await store.get(row.run_id)).toBeNull();
        expect(await store.delete(row.run_id)).toBe(false);
        const unowned = await admit(newId());
        expect(await store.delete(unowned.run_id)).toBe(true);
      });

      it("deleteByThread removes the owner's rows of that thread only", async () => {
        const threadId = newId();
        const alice = await admit(threadId, { user_id: "alice", created_at: at(1) });
        expect(await store.updateStatus(alice.run_id, "success")).toBe(true);
        const bob = await admit(threadId, { user_id: "bob", created_at: at(2) });
        const elsewhere = await admit(newId(), { user_id: "alice" });

        expect(await store.deleteByThread(threadId, { userId: "mallory" })).toBe(0);
        expect(await store.deleteByThread(threadId, { userId: "alice" })).toBe(1);
        expect(await store.get(alice.run_id)).toBeNull();
        expect(await store.get(bob.run_id)).not.toBeNull();
        expect(await store.deleteByThread(threadId)).toBe(1);
        expect(await store.get(bob.run_id)).toBeNull();
        expect(await store.get(elsewhere.run_id)).not.toBeNull();
        expect(await store.deleteByThread(threadId)).toBe(0);
      });

      it("put upserts a whole snapshot and recreates a vanished row", async () => {
        const row = await rowIn("running", { user_id: "alice" });
        expect(await store.delete(row.run_id)).toBe(true);
        await store.put(row);
        expect(normalized(await store.get(row.run_id))).toEqual(normalized(row));
        await store.put({ ...row, status: "success", message_count: 4, updated_at: at(9) });
        expect(await store.get(row.run_id)).toMatchObject({ status: "success", message_count: 4 });

        const copy: RunRow = { ...row, run_id: newId(), thread_id: newId() };
        await store.put(copy);
        expect(normalized(await store.get(copy.run_id))).toEqual(normalized(copy));
      });
    });

    describe("status writes", () => {
      it("updateStatus moves active and interrupted rows and records error and stop reason", async () => {
        const row = await rowIn("pending");
        expect(await store.updateStatus(row.run_id, "running")).toBe(true);
        expect(
          await store.updateStatus(row.run_id, "interrupted", {
            error: "stopped",
            stopReason: "loop_capped",
          }),
        ).toBe(true);
        expect(await store.get(row.run_id)).toMatchObject({
          status: "interrupted",
          error: "stopped",
          stop_reason: "loop_capped",
        });
        expect(await store.updateStatus(row.run_id, "interrupted")).toBe(true);
        expect(
          await store.updateStatus(row.run_id, "error", { error: "Rolled back by user" }),
        ).toBe(true);
        expect(await store.get(row.run_id)).toMatchObject({
          status: "error",
          error: "Rolled back by user",
        });
      });

      for (const terminal of ["success", "error", "timeout"] as const) {
        it(`updateStatus never changes a ${terminal} row`, async () => {
          const row = await rowIn(terminal);
          for (const next of ["running", "interrupted", "success", "error"] as const) {
            expect(await store.updateStatus(row.run_id, next, { error: "late" })).toBe(false);
          }
          expect(normalized(await store.get(row.run_id))).toEqual(normalized(row));
        });
      }

      it("updateStatus reports false for a missing row", async () => {
        expect(await store.updateStatus(newId(), "running")).toBe(false);
      });

      it("startRun is a pending → running compare-and-set", async () => {
        const row = await rowIn("pending");
        expect(await store.startRun(row.run_id, at(1))).toBe(true);
        expect(await statusOf(row.run_id)).toBe("running");
        expect(await store.startRun(row.run_id, at(2))).toBe(false);
        expect(await store.startRun((await rowIn("interrupted")).run_id, at(2))).toBe(false);
        expect(await store.startRun(newId(), at(2))).toBe(false);
      });

      it("finalizeIfNotCancelled finalizes an active row without a cancel request", async () => {
        const row = await rowIn("running");
        expect(
          await store.finalizeIfNotCancelled(row.run_id, "error", {
            error: "failed",
            stopReason: "token_capped",
          }),
        ).toEqual({ finalized: true, cancelAction: null });
        expect(await store.get(row.run_id)).toMatchObject({
          status: "error",
          error: "failed",
          stop_reason: "token_capped",
        });
        expect(await store.finalizeIfNotCancelled(row.run_id, "success")).toEqual({
          finalized: false,
          cancelAction: null,
        });
        expect(await statusOf(row.run_id)).toBe("error");
      });

      it("finalizeIfNotCancelled yields to a durable cancel request", async () => {
        const row = await rowIn("running");
        expect(await store.requestCancel(row.run_id, "rollback", at(2))).toBe("rollback");
        expect(await store.finalizeIfNotCancelled(row.run_id, "success")).toEqual({
          finalized: false,
          cancelAction: "rollback",
        });
        expect(await statusOf(row.run_id)).toBe("running");
        expect(await store.finalizeIfNotCancelled(newId(), "success")).toEqual({
          finalized: false,
          cancelAction: null,
        });
      });
    });

    describe("cancel requests and leases", () => {
      it("requestCancel: the first action wins and is returned to every caller", async () => {
        const row = await rowIn("running");
        expect(await store.requestCancel(row.run_id, "interrupt", at(1))).toBe("interrupt");
        expect(await store.requestCancel(row.run_id, "rollback", at(2))).toBe("interrupt");
        const stored = await store.get(row.run_id);
        expect(stored?.cancel_action).toBe("interrupt");
        expectSameInstant(stored?.cancel_requested_at, at(1));
        expect(stored?.status).toBe("running");
        const pending = await rowIn("pending");
        expect(await store.requestCancel(pending.run_id, "rollback", at(1))).toBe("rollback");
      });

      it("requestCancel touches active rows only and rejects unknown actions", async () => {
        const done = await rowIn("success");
        expect(await store.requestCancel(done.run_id, "interrupt", at(1))).toBeNull();
        expect(normalized(await store.get(done.run_id))).toEqual(normalized(done));
        expect(await store.requestCancel(newId(), "interrupt", at(1))).toBeNull();

        const running = await rowIn("running");
        const bogus = "explode" as unknown as CancelAction;
        await expect(store.requestCancel(running.run_id, bogus, at(1))).rejects.toThrow();
        expect((await store.get(running.run_id))?.cancel_action).toBeNull();
      });

      it("renewLease renews only for the owning worker and returns the cancel request", async () => {
        const row = await rowIn("running", { owner_worker_id: WORKER, lease_expires_at: at(10) });
        expect(await store.renewLease(row.run_id, WORKER, at(40))).toEqual({
          renewed: true,
          cancelAction: null,
        });
        expectSameInstant((await store.get(row.run_id))?.lease_expires_at, at(40));

        expect((await store.renewLease(row.run_id, PEER, at(90))).renewed).toBe(false);
        expectSameInstant((await store.get(row.run_id))?.lease_expires_at, at(40));

        expect(await store.requestCancel(row.run_id, "rollback", at(41))).toBe("rollback");
        expect(await store.renewLease(row.run_id, WORKER, at(70))).toEqual({
          renewed: true,
          cancelAction: "rollback",
        });
      });

      it("renewLease refuses terminal and missing rows", async () => {
        const done = await rowIn("success", { owner_worker_id: WORKER, lease_expires_at: at(10) });
        expect((await store.renewLease(done.run_id, WORKER, at(40))).renewed).toBe(false);
        expectSameInstant((await store.get(done.run_id))?.lease_expires_at, at(10));
        expect((await store.renewLease(newId(), WORKER, at(40))).renewed).toBe(false);
      });
    });

    describe("unsealed finished runs (crash between status commit and seal)", () => {
      const claim = (workerId = PEER) => ({
        now: at(100),
        graceSeconds: GRACE_SECONDS,
        workerId,
        error: "recovered",
      });

      it("lists and claims a terminal row whose seal is pending and lease expired, once", async () => {
        const row = await rowIn("running", { owner_worker_id: WORKER, lease_expires_at: at(50) });
        expect(await store.updateStatus(row.run_id, "success")).toBe(true);
        const listed = await store.listUnsealedTerminalWithExpiredLease({
          before: at(100),
          now: at(100),
          graceSeconds: GRACE_SECONDS,
        });
        expect(listed.map((r) => r.run_id)).toContain(row.run_id);
        const results = await Promise.all([
          store.claimUnsealedTerminal(row.run_id, claim()),
          store.claimUnsealedTerminal(row.run_id, claim(WORKER)),
        ]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.get(row.run_id)).toMatchObject({
          status: "success",
          evidence_seal_state: "partial",
          evidence_seal_error: "recovered",
        });
        const again = await store.listUnsealedTerminalWithExpiredLease({
          before: at(100),
          now: at(100),
          graceSeconds: GRACE_SECONDS,
        });
        expect(again.map((r) => r.run_id)).not.toContain(row.run_id);
      });

      it("leaves active, sealed, live-leased and internal rows alone", async () => {
        const active = await rowIn("running", {
          owner_worker_id: WORKER,
          lease_expires_at: at(50),
        });
        const live = await rowIn("running", { owner_worker_id: WORKER, lease_expires_at: at(95) });
        expect(await store.updateStatus(live.run_id, "success")).toBe(true);
        const sealed = await rowIn("running", {
          owner_worker_id: WORKER,
          lease_expires_at: at(50),
        });
        expect(await store.updateStatus(sealed.run_id, "success")).toBe(true);
        expect(
          await store.updateEvidenceSeal(sealed.run_id, {
            state: "sealed",
            upperSeq: 3,
            eventCount: 3,
          }),
        ).toBe(true);
        const internal = await rowIn("running", {
          operation_kind: "checkpoint_write",
          lease_expires_at: at(50),
        });
        expect(await store.updateStatus(internal.run_id, "success")).toBe(true);
        const listed = await store.listUnsealedTerminalWithExpiredLease({
          before: at(100),
          now: at(100),
          graceSeconds: GRACE_SECONDS,
        });
        const ids = listed.map((r) => r.run_id);
        for (const row of [active, live, sealed, internal]) {
          expect(ids).not.toContain(row.run_id);
          expect(await store.claimUnsealedTerminal(row.run_id, claim())).toBe(false);
        }
      });
    });

    describe("takeover and the recovery scan", () => {
      const claim = (workerId = PEER) => ({
        now: at(100),
        graceSeconds: GRACE_SECONDS,
        error: "Worker lost; run recovered",
        stopReason: ORPHAN_RECOVERY_STOP_REASON,
        workerId,
      });

      for (const { label, lease } of [
        { label: "a NULL lease", lease: null },
        { label: "a lease expired beyond the grace", lease: at(50) },
        { label: "a lease one second past the grace", lease: at(89) },
      ]) {
        it(`claimForTakeover claims an active row with ${label}`, async () => {
          const row = await rowIn("running", { owner_worker_id: WORKER, lease_expires_at: lease });
          expect(await store.claimForTakeover(row.run_id, claim())).toBe(true);
          expect(await store.get(row.run_id)).toMatchObject({
            status: "error",
            error: "Worker lost; run recovered",
            stop_reason: ORPHAN_RECOVERY_STOP_REASON,
            owner_worker_id: PEER,
          });
          expect(await store.claimForTakeover(row.run_id, claim(WORKER))).toBe(false);
          expect((await store.get(row.run_id))?.owner_worker_id).toBe(PEER);
        });
      }

      for (const { label, lease } of [
        { label: "a future lease", lease: at(200) },
        { label: "a lease inside the grace window", lease: at(95) },
        { label: "a lease exactly at the grace boundary", lease: at(90) },
      ]) {
        it(`claimForTakeover leaves a row with ${label} alone`, async () => {
          const row = await rowIn("running", { owner_worker_id: WORKER, lease_expires_at: lease });
          expect(await store.claimForTakeover(row.run_id, claim())).toBe(false);
          expect(normalized(await store.get(row.run_id))).toEqual(normalized(row));
        });
      }

      it("claimForTakeover claims pending rows but never terminal or missing ones", async () => {
        const pending = await rowIn("pending");
        expect(await store.claimForTakeover(pending.run_id, claim())).toBe(true);
        expect(await statusOf(pending.run_id)).toBe("error");
        const interrupted = await rowIn("interrupted");
        expect(await store.claimForTakeover(interrupted.run_id, claim())).toBe(false);
        expect(await statusOf(interrupted.run_id)).toBe("interrupted");
        expect(await store.claimForTakeover(newId(), claim())).toBe(false);
      });

      it("listInflightWithExpiredLease lists expired active rows created by `before`, oldest first", async () => {
        const rowAt = (second: number, lease: string | null, kind: "run" | "delete" = "run") =>
          admit(newId(), {
            created_at: at(second),
            lease_expires_at: lease,
            operation_kind: kind,
            owner_worker_id: WORKER,
          });
        const nullLease = await rowAt(10, null);
        const expired = await rowAt(5, at(20));
        expect(await store.startRun(expired.run_id, at(6))).toBe(true);
        const reservation = await rowAt(50, at(0), "delete");
        const live = await rowAt(1, at(95));
        const finished = await rowAt(2, null);
        expect(await store.updateStatus(finished.run_id, "success")).toBe(true);
        const interrupted = await rowAt(3, null);
        expect(await store.updateStatus(interrupted.run_id, "interrupted")).toBe(true);
        const tooNew = await rowAt(60, null);

        const mine = new Set(
          [nullLease, expired, reservation, live, finished, interrupted, tooNew].map(
            (r) => r.run_id,
          ),
        );
        const listed = await store.listInflightWithExpiredLease({
          before: at(50),
          now: at(100),
          graceSeconds: GRACE_SECONDS,
        });
        expect(listed.map((row) => row.run_id).filter((id) => mine.has(id))).toEqual([
          expired.run_id,
          nullLease.run_id,
          reservation.run_id,
        ]);
      });
    });

    describe("completion, progress and evidence", () => {
      it("updateRunCompletion records status and data, truncating messages to 2000 characters", async () => {
        const row = await rowIn("running");
        const usage = { demo: { input_tokens: 3, output_tokens: 4, total_tokens: 7 } };
        expect(
          await store.updateRunCompletion(row.run_id, "success", {
            total_input_tokens: 3,
            total_output_tokens: 4,
            total_tokens: 7,
            llm_call_count: 2,
            lead_agent_tokens: 5,
            subagent_tokens: 1,
            middleware_tokens: 1,
            token_usage_by_model: usage,
            message_count: 6,
            first_human_message: "h".repeat(2500),
            last_ai_message: "a".repeat(2001),
          }),
        ).toBe(true);
        const stored = must(await store.get(row.run_id));
        expect(stored).toMatchObject({
          status: "success",
          total_input_tokens: 3,
          total_output_tokens: 4,
          total_tokens: 7,
          llm_call_count: 2,
          lead_agent_tokens: 5,
          subagent_tokens: 1,
          middleware_tokens: 1,
          token_usage_by_model: usage,
          message_count: 6,
        });
        expect(stored.first_human_message).toBe("h".repeat(2000));
        expect(stored.last_ai_message).toBe("a".repeat(2000));
        // The same terminal status may be written again (a retried completion).
        expect(await store.updateRunCompletion(row.run_id, "success", { message_count: 7 })).toBe(
          true,
        );
        expect((await store.get(row.run_id))?.message_count).toBe(7);
      });

      it("updateRunCompletion never replaces a different terminal status", async () => {
        const done = await rowIn("success");
        expect(await store.updateRunCompletion(done.run_id, "error", { error: "late" })).toBe(
          false,
        );
        expect(normalized(await store.get(done.run_id))).toEqual(normalized(done));

        const interrupted = await rowIn("interrupted");
        expect(await store.updateRunCompletion(interrupted.run_id, "success", {})).toBe(false);
        expect(
          await store.updateRunCompletion(interrupted.run_id, "error", {
            error: "Rolled back by user",
          }),
        ).toBe(true);
        expect(await store.get(interrupted.run_id)).toMatchObject({
          status: "error",
          error: "Rolled back by user",
        });

        const pending = await rowIn("pending");
        expect(
          await store.updateRunCompletion(pending.run_id, "error", { error: "no start" }),
        ).toBe(true);
        expect(await store.updateRunCompletion(newId(), "success", {})).toBe(false);
      });

      it("updateRunProgress writes counters only while running", async () => {
        const row = await rowIn("running");
        await store.updateRunProgress(row.run_id, { message_count: 2, total_tokens: 11 });
        expect(await store.get(row.run_id)).toMatchObject({
          status: "running",
          message_count: 2,
          total_tokens: 11,
        });
        for (const status of ["pending", "success"] as const) {
          const other = await rowIn(status);
          await store.updateRunProgress(other.run_id, { message_count: 5 });
          expect(await store.get(other.run_id)).toMatchObject({ status, message_count: 0 });
        }
        await store.updateRunProgress(newId(), { message_count: 1 });
      });

      it("updateModelName sets the model name", async () => {
        const row = await rowIn("running");
        await store.updateModelName(row.run_id, "gpt-test");
        expect((await store.get(row.run_id))?.model_name).toBe("gpt-test");
      });

      it("updateEvidenceSeal writes the seal columns of an existing row", async () => {
        const row = await rowIn("success");
        expect(
          await store.updateEvidenceSeal(row.run_id, { state: "partial", error: "CONFLICT: x" }),
        ).toBe(true);
        expect(await store.get(row.run_id)).toMatchObject({
          evidence_seal_state: "partial",
          evidence_seal_error: "CONFLICT: x",
        });
        expect(
          await store.updateEvidenceSeal(row.run_id, {
            state: "sealed",
            upperSeq: 9,
            eventCount: 5,
          }),
        ).toBe(true);
        expect(await store.get(row.run_id)).toMatchObject({
          status: "success",
          evidence_seal_state: "sealed",
          evidence_seal_error: null,
          evidence_upper_seq: 9,
          evidence_event_count: 5,
        });
      });

      it("updateEvidenceSeal never recreates a deleted row", async () => {
        const row = await rowIn("error");
        expect(await store.delete(row.run_id)).toBe(true);
        expect(await store.updateEvidenceSeal(row.run_id, { state: "partial", error: "x" })).toBe(
          false,
        );
        expect(await store.get(row.run_id)).toBeNull();
        expect(await store.listByThread(row.thread_id)).toEqual([]);
      });
    });

    describe("write fence (owner_worker_id)", () => {
      it("a write fenced by another owner is refused and changes nothing", async () => {
        const row = await admit(newId(), { owner_worker_id: WORKER, lease_expires_at: at(30) });
        expect(
          await store.startRun(row.run_id, at(1), {
            fence: { runId: row.run_id, workerId: WORKER },
          }),
        ).toBe(true);
        const peer = { runId: row.run_id, workerId: PEER };
        await expect(store.startRun(row.run_id, at(1), { fence: peer })).rejects.toBeInstanceOf(
          OwnershipLostError,
        );
        const before = await store.get(row.run_id);
        await expect(
          store.updateStatus(row.run_id, "success", { fence: peer }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        await expect(
          store.finalizeIfNotCancelled(row.run_id, "success", { fence: peer }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        await expect(
          store.updateRunCompletion(row.run_id, "running", { message_count: 9, fence: peer }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        await expect(
          store.updateRunProgress(row.run_id, { message_count: 9 }, { fence: peer }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        await expect(
          store.updateModelName(row.run_id, "m", { fence: peer }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        await expect(
          store.updateEvidenceSeal(row.run_id, { state: "sealed" }, { fence: peer }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        expect(normalized(await store.get(row.run_id))).toEqual(normalized(before));
      });

      it("a takeover fences the previous owner's writes and admits the new owner's", async () => {
        const row = await rowIn("running", { owner_worker_id: WORKER, lease_expires_at: at(30) });
        const previous = { runId: row.run_id, workerId: WORKER };
        await store.updateRunProgress(row.run_id, { message_count: 1 }, { fence: previous });
        expect(
          await store.claimForTakeover(row.run_id, {
            now: at(60),
            graceSeconds: GRACE_SECONDS,
            error: "owner stopped",
            workerId: PEER,
          }),
        ).toBe(true);
        const claimed = await store.get(row.run_id);
        await expect(
          store.finalizeIfNotCancelled(row.run_id, "success", { fence: previous }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        await expect(
          store.updateEvidenceSeal(row.run_id, { state: "sealed" }, { fence: previous }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        expect(normalized(await store.get(row.run_id))).toEqual(normalized(claimed));
        const peer = { runId: row.run_id, workerId: PEER };
        expect(
          await store.updateEvidenceSeal(
            row.run_id,
            { state: "partial", error: "x" },
            { fence: peer },
          ),
        ).toBe(true);
        expect((await store.get(row.run_id))?.status).toBe("error");
      });

      it("a fenced write of a missing row is refused; an unfenced one is unchanged", async () => {
        const fence = { runId: newId(), workerId: WORKER };
        await expect(store.updateStatus(fence.runId, "error", { fence })).rejects.toBeInstanceOf(
          OwnershipLostError,
        );
        expect(await store.updateStatus(fence.runId, "error")).toBe(false);
      });
    });
  });
}

function must<T>(value: T | null | undefined): T {
  if (value == null) throw new Error("expected a value");
  return value;
}
