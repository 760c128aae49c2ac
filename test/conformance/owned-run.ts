/** The run every write-fence case starts from, shared by the store suites that fence on it. */
import type { RunStore } from "../../src/ports/run-store.js";
import { at, newId } from "./run-store.js";

/** The worker that owns the run, and the peer that takes it over. */
export const OWNER = "fence-owner";
export const PEER = "fence-peer";

/** A running run of the thread owned by OWNER whose lease lapsed at at(30). */
export async function createOwnedRun(runs: RunStore, threadId: string): Promise<string> {
  const runId = newId();
  await runs.createThreadOperation(
    {
      run_id: runId,
      thread_id: threadId,
      created_at: at(0),
      owner_worker_id: OWNER,
      lease_expires_at: at(30),
    },
    { strategy: "reject", workerId: OWNER, now: at(0), graceSeconds: 0 },
  );
  return runId;
}
