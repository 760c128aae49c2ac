import type { AgentStreamOptions } from "../../src/ports/agent.js";
import { RunJournal } from "../../src/runtime/journal/run-journal.js";

/** The run's journal among the callbacks the worker hands a graph (it is one of them). */
export function runJournalOf(options: AgentStreamOptions): RunJournal | null {
  return options.callbacks?.find((c): c is RunJournal => c instanceof RunJournal) ?? null;
}
