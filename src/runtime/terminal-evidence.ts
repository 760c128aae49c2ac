import {
  describeError,
  isCancelledError,
  isFawnError,
  isOwnershipLostError,
} from "../core/errors.js";
import type { RunEvent, RunEventStore } from "../ports/run-event-store.js";
import type { RunStatus } from "../ports/run-types.js";
import type { FencedWrite } from "../ports/write-fence.js";

/**
 * The authoritative `run.terminal` event: written once per run through `putIfAbsent`, only after
 * the final status commit was attributably acknowledged, and validated against what we expected.
 */
export const TERMINAL_EVENT_TYPE = "run.terminal";
export const TERMINAL_PROTOCOL_VERSION = 1;
export const MISSING_FINAL_ACK_ERROR = "Terminal event lacks an attributable final commit ACK";

export interface ExpectedTerminal {
  threadId: string;
  runId: string;
  status: RunStatus;
  userId: string | null;
  recovered: boolean;
}

export type TerminalFailureKind = "cancelled" | "unknown" | "malformed" | "conflict" | "fenced";

export type TerminalConfirmation =
  | { confirmed: true; event: RunEvent; attempts: number }
  | { confirmed: false; kind: TerminalFailureKind; detail: string; attempts: number };

export interface ConfirmOptions extends FencedWrite {
  /** Checked atomically with the insert (deletion fencing for recovery). */
  guard?: () => Promise<boolean>;
}

/** Write-or-confirm the terminal event: one retry after an unknown outcome, never a duplicate. */
export async function confirmTerminalEvent(
  store: RunEventStore,
  expected: ExpectedTerminal,
  options: ConfirmOptions = {},
): Promise<TerminalConfirmation> {
  const event = {
    thread_id: expected.threadId,
    run_id: expected.runId,
    event_type: TERMINAL_EVENT_TYPE,
    category: "trace",
    content: { status: expected.status },
    metadata: { protocol_version: TERMINAL_PROTOCOL_VERSION, recovered: expected.recovered },
    user_id: expected.userId,
  };
  let attempts = 0;
  for (;;) {
    attempts += 1;
    let result: unknown;
    try {
      result = await store.putIfAbsent(event, {
        ...(options.guard ? { guard: options.guard } : {}),
        ...(options.fence ? { fence: options.fence } : {}),
      });
    } catch (error) {
      if (isCancelledError(error))
        return { confirmed: false, kind: "cancelled", detail: describeError(error), attempts };
      // Another worker owns the run now: its terminal is the one that counts.
      if (isOwnershipLostError(error)) {
        return { confirmed: false, kind: "fenced", detail: describeError(error), attempts };
      }
      // The guard refused the write (the run was deleted): a retry cannot change that.
      if (options.guard && isFawnError(error) && error.code === "conflict") {
        return {
          confirmed: false,
          kind: "fenced",
          detail: `terminal write fenced: ${describeError(error)}`,
          attempts,
        };
      }
      if (attempts >= 2) {
        return {
          confirmed: false,
          kind: "unknown",
          detail: `terminal write outcome unknown: ${describeError(error)}`,
          attempts,
        };
      }
      continue; // The write may have committed: the retry confirms the existing row instead.
    }
    if (!isPutResult(result)) {
      return {
        confirmed: false,
        kind: "malformed",
        detail: "terminal write returned a malformed result",
        attempts,
      };
    }
    const conflict = terminalConflict(result.event, expected);
    if (conflict)
      return { confirmed: false, kind: "conflict", detail: `CONFLICT: ${conflict}`, attempts };
    return { confirmed: true, event: result.event, attempts };
  }
}

function isPutResult(value: unknown): value is { event: RunEvent; created: boolean } {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { event?: unknown; created?: unknown };
  return (
    typeof candidate.created === "boolean" &&
    typeof candidate.event === "object" &&
    candidate.event !== null
  );
}

/** Why an existing terminal event does not match the expectation, or null when it does. */
export function terminalConflict(event: RunEvent, expected: ExpectedTerminal): string | null {
  if (event.event_type !== TERMINAL_EVENT_TYPE) return `event_type ${event.event_type}`;
  if (event.thread_id !== expected.threadId || event.run_id !== expected.runId)
    return "thread or run differs";
  if (event.category !== "trace") return `category ${event.category}`;
  const content = event.content;
  if (typeof content !== "object" || content === null || Array.isArray(content))
    return "content is not an object";
  const keys = Object.keys(content);
  const status = (content as { status?: unknown }).status;
  if (keys.length !== 1 || status !== expected.status)
    return `status ${String(status)} (expected ${expected.status})`;
  const version = event.metadata.protocol_version;
  if (typeof version !== "number" || version !== TERMINAL_PROTOCOL_VERSION) {
    return `protocol_version ${JSON.stringify(version)}`;
  }
  const recovered = event.metadata.recovered;
  if (typeof recovered !== "boolean")
    return `recovered ${JSON.stringify(recovered)} is not a boolean`;
  // Recovery accepts an owner's terminal that already states the recovered status.
  if (!expected.recovered && recovered) return "recovered terminal on the owner path";
  if (expected.userId !== null && event.user_id !== expected.userId)
    return `user_id ${String(event.user_id)}`;
  return null;
}
