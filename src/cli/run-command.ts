import { randomUUID } from "node:crypto";
import { createFawn, type Fawn } from "../app/create-fawn.js";
import { loadConfig } from "../core/config/load-config.js";
import { describeError } from "../core/errors.js";
import { createLogger } from "../core/logger.js";
import { DEFAULT_USER_ID, FawnPaths } from "../core/paths.js";
import { waitForRunEnd } from "../gateway/runs/run-waiter.js";
import { MemoryStreamBridge } from "../stores/memory/stream-bridge.js";
import {
  type ProgressOutput,
  ProgressPrinter,
  type StreamedMessage,
  textOf,
} from "./progress-printer.js";
import { servedAgent } from "./served-agent.js";

export interface RunTaskOptions {
  task: string;
  /** `configurable.model_name` for the run (default: the config's default model). */
  modelName?: string;
  /** Where progress, the answer and artifacts go (default: stdout). */
  out?: ProgressOutput;
  /** Where failures go (default: stderr). */
  err?: ProgressOutput;
}

export interface RunTaskResult {
  exitCode: number;
  status: string;
  answer: string;
  /** Presented files: virtual path and host path. */
  artifacts: Array<{ virtualPath: string; hostPath: string }>;
}

interface ThreadValues {
  messages?: StreamedMessage[];
  artifacts?: string[];
}

/**
 * `fawn run "<task>"`: config → an in-process Fawn with the lead agent `fawn serve` runs → a new
 * thread → one run, its progress printed live, then the answer and the presented files. Exit code
 * 0 only when the run ends in `success`. Fawn is closed before returning.
 */
export async function runTask(options: RunTaskOptions): Promise<RunTaskResult> {
  const out = options.out ?? process.stdout;
  const err = options.err ?? process.stderr;
  const { config, warnings } = await loadConfig();
  // The terminal is for progress: the runtime logs only problems unless FAWN_LOG_LEVEL says more.
  const logger = createLogger({ level: process.env.FAWN_LOG_LEVEL ?? "error" });
  for (const warning of warnings) err.write(`config: ${warning}\n`);
  const agent = servedAgent(config, logger);
  const fawn = await createFawn({
    config,
    logger,
    // In-process: this process is the only reader of its runs' streams.
    bridge: new MemoryStreamBridge({ queueMaxSize: config.stream_bridge.queue_maxsize }),
    buildAgent: agent.build,
    completionHooks: true,
  });
  const printer = new ProgressPrinter(out);
  try {
    return await execute(fawn, options, printer, out, err);
  } finally {
    printer.stop();
    await fawn.close();
  }
}

async function execute(
  fawn: Fawn,
  options: RunTaskOptions,
  printer: ProgressPrinter,
  out: ProgressOutput,
  err: ProgressOutput,
): Promise<RunTaskResult> {
  const threadId = randomUUID();
  const userId = DEFAULT_USER_ID;
  await fawn.stores.threads.create({
    thread_id: threadId,
    user_id: userId,
    assistant_id: "lead_agent",
    metadata: { source: "fawn run" },
    created_at: new Date().toISOString(),
  });
  const record = await fawn.runs.submit({
    threadId,
    userId,
    assistantId: "lead_agent",
    invocation: {
      input: { messages: [{ role: "user", content: options.task }] },
      config: options.modelName ? { configurable: { model_name: options.modelName } } : {},
      stream_mode: ["values"],
    },
  });
  printer.line(`Thread ${threadId}, run ${record.runId}`);
  printer.start();
  let values: ThreadValues = {};
  const streamErrors: string[] = [];
  for await (const item of fawn.bridge.subscribe(record.runId)) {
    if (item.kind === "end") break;
    if (item.kind !== "event") continue;
    if (item.event.event === "values" && isObject(item.event.data)) {
      values = item.event.data as ThreadValues;
      printer.onValues(values.messages ?? []);
    } else if (item.event.event === "error" && isObject(item.event.data)) {
      streamErrors.push(String(item.event.data.message ?? "error"));
    }
  }
  const row = await waitForRunEnd(fawn, record.runId);
  printer.stop();
  const status = row?.status ?? "error";
  const answer = finalAnswer(values.messages ?? []);
  const paths = new FawnPaths(fawn.config.home);
  const artifacts = (values.artifacts ?? []).map((virtualPath) => ({
    virtualPath,
    hostPath: paths.resolveVirtualPath({ userId, threadId }, virtualPath),
  }));
  if (answer) out.write(`\n${answer.trimEnd()}\n`);
  if (artifacts.length > 0) {
    out.write("\nArtifacts:\n");
    for (const a of artifacts) out.write(`  ${a.hostPath}  (${a.virtualPath})\n`);
  }
  if (status === "success") {
    out.write(`\nRun ${record.runId} succeeded.\n`);
    return { exitCode: 0, status, answer, artifacts };
  }
  const reason = row?.error ?? streamErrors.at(-1) ?? "no details";
  err.write(`\nRun ${record.runId} ended ${status}: ${reason}\n`);
  return { exitCode: 1, status, answer, artifacts };
}

/** The last AI message's text. */
function finalAnswer(messages: StreamedMessage[]): string {
  const last = messages.filter((m) => m.type === "ai").at(-1);
  return last ? textOf(last.content) : "";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The CLI action: runs the task, reports unexpected failures, exits promptly with its code. */
export async function runCommand(task: string, modelName?: string): Promise<never> {
  let code = 1;
  try {
    code = (await runTask({ task, ...(modelName ? { modelName } : {}) })).exitCode;
  } catch (error) {
    process.stderr.write(`fawn: ${describeError(error)}\n`);
  }
  // Fawn is closed; leftover timers (stream retention) must not hold the process.
  process.exit(code);
}
