/**
 * The journal under a write fence: once a peer owns the run, the store refuses the journal's
 * batch; the journal writes nothing more, reports the loss once and never throws at its writer.
 */
import { describe, expect, it } from "vitest";
import { RunJournal } from "../../src/runtime/journal/run-journal.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { at, newId } from "../conformance/run-store.js";

describe("RunJournal with a write fence", () => {
  it("stops writing and reports ownership lost once after a takeover", async () => {
    const stores = createMemoryStores();
    const [threadId, runId] = [newId(), newId()];
    await stores.runs.createThreadOperation(
      {
        run_id: runId,
        thread_id: threadId,
        created_at: at(0),
        owner_worker_id: "owner",
        lease_expires_at: at(5),
      },
      { strategy: "reject", workerId: "owner", now: at(0), graceSeconds: 0 },
    );
    const lost: string[] = [];
    const journal = new RunJournal({
      eventStore: stores.events,
      threadId,
      runId,
      userId: null,
      fence: { runId, workerId: "owner" },
      onOwnershipLost: (reason) => lost.push(reason),
    });
    journal.append("run.start", { chain: "lead_agent" });
    await journal.flush();
    expect(lost).toEqual([]);

    const claim = { now: at(60), graceSeconds: 0, error: "owner stopped", workerId: "peer" };
    expect(await stores.runs.claimForTakeover(runId, claim)).toBe(true);
    journal.append("llm.error", { message: "aborted" });
    journal.append("run.error", { message: "aborted" });
    await journal.flush();
    expect(journal.append("run.error", { message: "later" })).toBe(false);
    await journal.close();

    expect(lost).toHaveLength(1);
    expect(lost[0]).toContain("no longer owns it");
    expect(journal.drainedCleanly).toBe(false);
    const stored = await stores.events.listEvents(threadId, runId);
    expect(stored.map((event) => event.event_type)).toEqual(["run.start"]);
  });
});
