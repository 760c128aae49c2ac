import type { Turn } from "../message-groups.js";

/** The parts of a run (as `GET /threads/{id}/runs` returns it) a turn's duration needs. */
export interface RunTimes {
  run_id: string;
  status: string;
  created_at: string;
  updated_at: string;
  kwargs?: unknown;
}

export type TurnTime = { state: "finished"; ms: number } | { state: "running"; since: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The human messages a run was started with (`kwargs.input.messages`). */
function inputMessages(run: RunTimes): { id: string | null; text: string }[] {
  const input = isRecord(run.kwargs) && isRecord(run.kwargs.input) ? run.kwargs.input : null;
  const messages = input && Array.isArray(input.messages) ? input.messages : [];
  return messages.flatMap((message: unknown) => {
    if (!isRecord(message)) return [];
    const type = message.type ?? message.role;
    if (type !== "human" && type !== "user") return [];
    return [
      {
        id: typeof message.id === "string" ? message.id : null,
        text: typeof message.content === "string" ? message.content.trim() : "",
      },
    ];
  });
}

function active(run: RunTimes): boolean {
  return run.status === "pending" || run.status === "running";
}

/**
 * Each turn's time, keyed by the index of the turn's last group: a finished run's
 * `updated_at − created_at`, a running one's start. A run is matched to the turn its input
 * message started — by message id, else by its text (newest turn first) — and the newest run
 * wins, so a regenerated turn shows its latest run. Turns with no run (seeded threads) have none.
 */
export function turnDurations(
  turns: ReadonlyArray<Turn>,
  runs: ReadonlyArray<RunTimes>,
): Map<number, TurnTime> {
  const times = new Map<number, TurnTime>();
  const claimed = new Set<number>();
  const newestFirst = [...runs].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  for (const run of newestFirst) {
    const inputs = inputMessages(run);
    const byId = turns.findIndex(
      (turn) =>
        turn.humanMessageId !== null && inputs.some((input) => input.id === turn.humanMessageId),
    );
    const index =
      byId >= 0
        ? byId
        : turns.findLastIndex(
            (turn, at) =>
              !claimed.has(at) && inputs.some((input) => input.text === turn.text.trim()),
          );
    const turn = index >= 0 ? turns[index] : undefined;
    if (!turn || claimed.has(index)) continue;
    claimed.add(index);
    const started = Date.parse(run.created_at);
    const ended = Date.parse(run.updated_at);
    if (Number.isNaN(started)) continue;
    if (active(run)) times.set(turn.lastIndex, { state: "running", since: started });
    else if (!Number.isNaN(ended))
      times.set(turn.lastIndex, { state: "finished", ms: Math.max(0, ended - started) });
  }
  return times;
}
