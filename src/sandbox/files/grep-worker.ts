import { Worker } from "node:worker_threads";
import { DeadlineExceededError } from "../../core/errors.js";

export interface GrepFile {
  hostPath: string;
  virtualPath: string;
}

export interface GrepJob {
  files: GrepFile[];
  source: string;
  flags: string;
  /** Collect at most this many matches (one more is looked for, to report truncation). */
  maxResults: number;
  maxLineChars: number;
  /** Larger files are skipped, like binary ones. */
  maxFileBytes: number;
}

export interface GrepJobResult {
  matches: Array<{ path: string; lineNumber: number; line: string }>;
  truncated: boolean;
}

/**
 * The search loop, run in a worker thread. The pattern comes from the model: a catastrophically
 * backtracking regex on the event loop would stall every run of the process, so matching happens
 * off the loop, and a worker that runs past its deadline is terminated. Plain JavaScript
 * (evaluated, CommonJS) so it runs the same under tsx, vitest and the built package.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { open } = require("node:fs/promises");
const { constants } = require("node:fs");
async function readSmallFile(path, maxBytes) {
  // O_NONBLOCK: a FIFO must not hold a thread-pool thread (shared with the whole process).
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) return null;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
async function search(job) {
  const regex = new RegExp(job.source, job.flags);
  const matches = [];
  for (const file of job.files) {
    let bytes;
    try {
      bytes = await readSmallFile(file.hostPath, job.maxFileBytes);
    } catch {
      continue;
    }
    if (bytes === null || bytes.subarray(0, 8192).includes(0)) continue;
    const lines = bytes.toString("utf8").split(/\\r?\\n/);
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i];
      if (!regex.test(line)) continue;
      if (matches.length >= job.maxResults) return { matches, truncated: true };
      const shown = line.length > job.maxLineChars ? line.slice(0, job.maxLineChars) + " …" : line;
      matches.push({ path: file.virtualPath, lineNumber: i + 1, line: shown });
    }
  }
  return { matches, truncated: false };
}
parentPort.on("message", (job) => {
  search(job).then(
    (result) => parentPort.postMessage(result),
    (error) => parentPort.postMessage({ error: String((error && error.message) || error) }),
  );
});
`;

/** Idle workers kept for the next search (starting one costs a few hundred ms). */
const MAX_IDLE_WORKERS = 2;
const idleWorkers: Worker[] = [];

function takeWorker(): Worker {
  const idle = idleWorkers.pop();
  if (idle) return idle;
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  // Idle workers must never keep the process alive.
  worker.unref();
  return worker;
}

function returnWorker(worker: Worker): void {
  if (idleWorkers.length < MAX_IDLE_WORKERS) idleWorkers.push(worker);
  else void worker.terminate();
}

/** Runs one search on its own worker; past `timeoutMs` that worker is terminated. */
export async function runGrepJob(job: GrepJob, timeoutMs: number): Promise<GrepJobResult> {
  const worker = takeWorker();
  worker.ref();
  let healthy = true;
  try {
    return await new Promise<GrepJobResult>((resolve, reject) => {
      const onMessage = (message: GrepJobResult | { error: string }): void => {
        settle();
        if ("error" in message) reject(new Error(message.error));
        else resolve(message);
      };
      const onError = (error: Error): void => {
        healthy = false;
        settle();
        reject(error);
      };
      const timer = setTimeout(() => {
        healthy = false;
        settle();
        reject(
          new DeadlineExceededError(
            `grep did not finish within ${Math.round(timeoutMs / 1000)} s; use a simpler pattern or a narrower path.`,
          ),
        );
      }, timeoutMs);
      const settle = (): void => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.postMessage(job);
    });
  } finally {
    worker.unref();
    if (healthy) returnWorker(worker);
    else void worker.terminate();
  }
}
