/** Where in a plugin's life a failure happened. */
export type DiagnosticStage =
  | "resolve"
  | "validate"
  | "install"
  | "start"
  | "tick"
  | "tool"
  | "action"
  | "stop";

/** One recorded plugin failure: who, where, what. Never carries a stack or secrets. */
export interface ExtensionDiagnostic {
  /** The entry's `name`, else its `use`. */
  plugin: string;
  namespace?: string;
  level: "error" | "warning";
  stage: DiagnosticStage;
  message: string;
  /** ISO time it was recorded. */
  at: string;
}

export const MAX_DIAGNOSTICS = 1000;

/**
 * The live diagnostics list: load failures first, then runtime failures (tool, action, tick, …)
 * as they happen. Capped at the newest `MAX_DIAGNOSTICS` so a failing tick cannot grow it forever.
 */
export class ExtensionDiagnostics {
  readonly #entries: ExtensionDiagnostic[] = [];
  readonly #onRecord: ((diagnostic: ExtensionDiagnostic) => void) | undefined;

  constructor(onRecord?: (diagnostic: ExtensionDiagnostic) => void) {
    this.#onRecord = onRecord;
  }

  record(diagnostic: Omit<ExtensionDiagnostic, "at">): ExtensionDiagnostic {
    const entry: ExtensionDiagnostic = Object.freeze({
      ...diagnostic,
      message: clipMessage(diagnostic.message),
      at: new Date().toISOString(),
    });
    this.#entries.push(entry);
    if (this.#entries.length > MAX_DIAGNOSTICS) {
      this.#entries.splice(0, this.#entries.length - MAX_DIAGNOSTICS);
    }
    this.#onRecord?.(entry);
    return entry;
  }

  /** A snapshot, oldest first. */
  list(): readonly ExtensionDiagnostic[] {
    return [...this.#entries];
  }

  get size(): number {
    return this.#entries.length;
  }
}

const MAX_MESSAGE_CHARS = 2000;

function clipMessage(message: string): string {
  return message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS)}…`;
}
