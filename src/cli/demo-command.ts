import { DEMO_MODEL_NAME } from "../agent/models/demo-model.js";
import { runCommand } from "./run-command.js";

/** The task `fawn demo` gives the offline demo model (its script writes and presents a report). */
export const DEMO_TASK = "Write me a short report";

/** `fawn demo`: `fawn run` with the offline demo model forced and a fixed task. */
export function demoCommand(): Promise<never> {
  process.stdout.write(`Fawn demo: the offline demo model runs "${DEMO_TASK}".\n`);
  return runCommand(DEMO_TASK, DEMO_MODEL_NAME);
}
