import { spawn } from "node:child_process";
import { constants as fsConstants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { constants } from "node:os";
import { join, resolve as resolvePath } from "node:path";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { COMMAND_GROUP_ENV, type CommandGroupRegistry } from "./command-group-registry.js";

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
  /** Record the command's process group here while it runs (start-up reaping after a crash). */
  groups?: CommandGroupRegistry;
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
 * The group's supervisor, run as `sh -c SUPERVISOR fawn-command <file> <args…>`. Its stdin is a
 * pipe from this process that is never written: it keeps a watcher blocked in `read` until the
 * pipe closes — which the kernel does when this process dies, however it dies (SIGKILL too) —
 * and the watcher then SIGKILLs the whole group (`kill -9 0`). The command itself gets
 * /dev/null as stdin, no copy of the pipe, and its exit status becomes the supervisor's.
 */
const SUPERVISOR = [
  "exec 4<&0 </dev/null",
  "{ read -r _ <&4; kill -9 0; } >/dev/null 2>&1 3>&- &",
  '"$@" 4<&-',
  "status=$?",
  'kill -9 "$!" 2>/dev/null',
  'exit "$status"',
].join("\n");

/**
 * Runs one command in its own session and process group (`detached`), with no stdin, under a
 * supervisor that SIGKILLs the group if this process dies. At the deadline, on abort, and when the
 * command exits, the whole group is SIGKILLed: a timeout takes background children and their
 * children with it, and nothing a command started outlives it or this process (unless it left
 * the group with `setsid`). Output beyond `maxOutputBytes` is read and dropped so a chatty
 * command never blocks on a full pipe. Rejects only when the process cannot be started (`ENOENT`
 * for a missing executable), or with the signal's reason on abort.
 */
export async function runProcess(options: RunProcessOptions): Promise<ProcessOutcome> {
  const { signal, groups } = options;
  if (signal?.aborted) throw signal.reason;
  const file = await findExecutable(options.file, options.env.PATH, options.cwd);
  if (signal?.aborted) throw signal.reason;
  const token = groups?.newToken();
  return new Promise<ProcessOutcome>((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", SUPERVISOR, "fawn-command", file, ...options.args], {
      cwd: options.cwd,
      env: token ? { ...options.env, [COMMAND_GROUP_ENV]: token } : options.env,
      detached: true,
      stdio: options.statusFd ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
    });
    // The supervisor's lifeline: held open, never written, closed by our exit.
    child.stdin?.on("error", () => undefined);
    const tracked = token && child.pid !== undefined ? groups?.track(child.pid, token) : undefined;
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
      child.stdin?.destroy();
    };

    child.once("error", (error) => {
      cleanup();
      killGroup();
      void (tracked?.release() ?? Promise.resolve()).then(() => reject(error));
    });
    child.once("exit", (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      killGroup();
      // A grandchild that left the group may still hold a pipe open; don't wait on it forever.
      drainTimer = setTimeout(() => {
        for (const stream of streams) stream.destroy();
      }, PIPE_DRAIN_GRACE_MS);
    });
    child.once("close", async () => {
      cleanup();
      // The group was killed at exit; its record can go before anyone sees the outcome.
      await tracked?.release();
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

/**
 * The executable `spawn` would run, found the way it searches (`PATH` of the child's environment,
 * or relative to `cwd` for a name with a slash), so that a missing program still fails with
 * `ENOENT` although the supervisor shell is what is spawned.
 */
async function findExecutable(
  file: string,
  pathVariable: string | undefined,
  cwd: string | undefined,
): Promise<string> {
  const candidates = file.includes("/")
    ? [resolvePath(cwd ?? process.cwd(), file)]
    : (pathVariable ?? "/usr/bin:/bin")
        .split(":")
        .filter((dir) => dir !== "")
        .map((dir) => resolvePath(cwd ?? process.cwd(), join(dir, file)));
  for (const candidate of candidates) {
    const info = await stat(candidate).catch(() => null);
    if (!info?.isFile()) continue;
    if (
      await access(candidate, fsConstants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  throw Object.assign(new Error(`spawn ${file} ENOENT`), {
    code: "ENOENT",
    errno: -constants.errno.ENOENT,
    syscall: `spawn ${file}`,
    path: file,
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
