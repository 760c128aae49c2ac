/**
 * Tasks run once at the end of the current event-loop turn (the check phase, after pending I/O
 * and timers), all of them from one `setImmediate`: every SSE connection that got frames during
 * a turn flushes them then, and a busy turn with a hundred streaming connections schedules one
 * immediate rather than a hundred.
 */
const due: Array<() => void> = [];
let armed = false;

export function atTurnEnd(task: () => void): void {
  due.push(task);
  if (armed) return;
  armed = true;
  setImmediate(runDue);
}

function runDue(): void {
  armed = false;
  // Tasks queued while these run (a flush that schedules another) wait for the next turn.
  const tasks = due.splice(0, due.length);
  let failure: { error: unknown } | null = null;
  for (const task of tasks) {
    try {
      task();
    } catch (error) {
      // One task's failure must not keep the others' frames back; it surfaces afterwards, as
      // it would have from its own immediate.
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
