import { AgentRunError } from "../../core/errors.js";
import type { AgentRun } from "../../extensions/api/agent-runs.js";
import { isActiveStatus } from "../../ports/run-types.js";
import { toAgentRun } from "./agent-run-views.js";
import type { AgentRunsHostDeps } from "./agent-runs-host.js";

export interface SourceClaim {
  threadId: string;
  userId: string;
  /** Null when the plugin lost the admission's acknowledgement: the key alone names the run. */
  runId: string | null;
  /** The stored key, `extension:<namespace>:<key>`. */
  key: string;
  namespace: string;
}

const NOT_EXECUTING = "Run is not executing for this plugin";

/**
 * Prove the claimed run is executing now as this plugin's own admission: found by the plugin's
 * key, on that thread, for that user, stamped by the host with the plugin as its origin (a plain
 * API run with the same key text is not), pending or running (not queued), and the named run when
 * one is named. Then check the thread's sandbox can hand files over.
 */
export async function validateSource(
  deps: AgentRunsHostDeps,
  claim: SourceClaim,
): Promise<AgentRun> {
  const row = await deps.stores.runs.getByIdempotencyKey(claim.key);
  const local = row ? deps.manager.getLocal(row.run_id) : null;
  const status = local?.status ?? row?.status;
  const origin = row?.kwargs.origin;
  const executing =
    row !== null &&
    row.operation_kind === "run" &&
    row.thread_id === claim.threadId &&
    row.user_id === claim.userId &&
    origin?.kind === "extension" &&
    origin.namespace === claim.namespace &&
    status !== undefined &&
    isActiveStatus(status) &&
    !row.queued &&
    (claim.runId === null || row.run_id === claim.runId);
  if (!executing || row === null || status === undefined)
    throw new AgentRunError(409, NOT_EXECUTING);
  await deps.artifacts.checkSupport({ threadId: claim.threadId, userId: claim.userId });
  return toAgentRun({ ...row, status });
}
