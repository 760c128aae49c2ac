import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

export interface RunProcessOptions {
  file: string;
  args: readonly string[];
  /** The complete environment of the child (nothing is inherited implicitly). */
  env: Record<string, string>;
  cwd?: string;
  timeoutMs: number;
  /** Bytes kept of stdout and of stderr each. */
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Open fd 3 as a pipe and collect it (bubblewrap's `--json-status-fd 3`). */
  statusFd?: boolean;
}

export interface ProcessOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  /** What the child wrote to fd 3, when `statusFd`. */
  status: string;
}

/** After the main process exits, how long its pipes may stay open before we stop reading. */
const PIPE_DRAIN_GRACE_MS = 2_000;

/**
 * Runs one command in its own session and process group (`detached`), with no stdin. At the
 * deadline, on abort, and when the main process exits, the whole group is SIGKILLed: a timeout
 * takes background children with it, and nothing a command started outlives it. Output beyond
 * `maxOutputBytes` is read and dropped so a chatty command never blocks on a full pipe.
 * Rejects only when the process cannot be started, or with the signal's reason on abort.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessOutcome> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<ProcessOutcome>((resolve, reject) => {
    const child = spawn(options.file, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: options.statusFd ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"],
    });
    const stdout = new BoundedCapture(options.maxOutputBytes);
    const stderr = new BoundedCapture(options.maxOutputBytes);
    const status = new BoundedCapture(64 * 1024);
    const streams: Readable[] = [];
    const collect = (stream: Readable | null | undefined, capture: BoundedCapture): void => {
      if (!stream) return;
      streams.push(stream);
      stream.on("data", (chunk: Buffer) => capture.add(chunk));
      stream.on("error", () => undefined);
    };
    collect(child.stdout, stdout);
    collect(child.stderr, stderr);
    if (options.statusFd) collect(child.stdio[3] as Readable | null, status);

    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const cleanup = (): void => {
      clearTimeout(timer);
      clearTimeout(drainTimer);
      signal?.removeEventListener("abort", onAbort);
    };

    child.once("error", (error) => {
      cleanup();
      killGroup();
      reject(error);
    });
    child.once("exit", (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      killGroup();
      // A grandchild that left the group may still hold a pipe open; don't wait on it forever.
      drainTimer = setTimeout(() => {
        for (const stream of streams) stream.destroy();
      }, PIPE_DRAIN_GRACE_MS);
    });
    child.once("close", () => {
      cleanup();
      if (aborted) {
        reject(signal?.reason);
        return;
      }
      const code = exit?.code ?? child.exitCode;
      const exitSignal = exit?.signal ?? child.signalCode;
      resolve({
        exitCode: code ?? 128 + (exitSignal ? constants.signals[exitSignal] : 0),
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: stdout.truncated || stderr.truncated,
        timedOut,
        status: status.text(),
      });
    });
  });
}

/** Keeps the first `limit` bytes of a stream and remembers whether anything was dropped. */
class BoundedCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const room = this.limit - this.kept;
    if (room <= 0) {
      if (chunk.length > 0) this.truncated = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** UTF-8; a character cut in half by the limit is dropped rather than shown as garbage. */
  text(): string {
    const bytes = Buffer.concat(this.chunks);
    const decoder = new StringDecoder("utf8");
    return this.truncated ? decoder.write(bytes) : decoder.end(bytes);
  }
}
