import { describeError } from "../../core/errors.js";

/**
 * A graph's failure keeps its class: the SSE `error` frame, `/wait`'s `__error__` and the run's
 * stored error all name it (`GraphRecursionError`, a custom class's `name`), as the platform does.
 * The stored error is `<ClassName>: <message>`; the server's own reasons (a rollback, a refused
 * delivery) are plain sentences and read back as `RunError`.
 */
export interface RunErrorPayload {
  error: string;
  message: string;
}

const CLASS_NAME = /^[A-Za-z_$][\w$]{0,127}$/;
const STORED = /^([A-Za-z_$][\w$]{0,127}): ([\s\S]*)$/;

/** The class and message of what a graph threw. */
export function runErrorOf(error: unknown): RunErrorPayload {
  const message = describeError(error);
  const name = error instanceof Error ? error.name : "";
  return { error: CLASS_NAME.test(name) ? name : "Error", message };
}

/** The text a failed run stores: `<ClassName>: <message>`. */
export function storedRunError(error: unknown): string {
  const { error: name, message } = runErrorOf(error);
  return `${name}: ${message}`;
}

/** The class and message of a run's stored error (`RunError` when it names no class). */
export function parseRunError(stored: string | null): RunErrorPayload {
  if (stored === null || stored === "") return { error: "RunError", message: "Run failed" };
  const match = STORED.exec(stored);
  if (match?.[1] && match[2] !== undefined) return { error: match[1], message: match[2] };
  return { error: "RunError", message: stored };
}
