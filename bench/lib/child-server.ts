import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { bundleEntry } from "./bundle.js";
import { type IpcReply, isIpcReply, isReadyMessage } from "./ipc.js";
import { repoRoot } from "./paths.js";

/** A server under test in its own process. */
export interface ChildServer {
  url: string;
  pid: number;
  /** Ask the child something over IPC (memory, event-loop delay, …). */
  request(type: string, body?: unknown): Promise<unknown>;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  args?: string[];
  env?: Record<string, string>;
  /** Give up waiting for the ready message after this long (default 60 s). */
  startTimeoutMs?: number;
}

/**
 * Starts `entry` (a .ts file under the repository, bundled first) as
 * `node --expose-gc <bundle> …args` and waits for its ready message.
 */
export async function startChildServer(
  entry: string,
  options: ChildServerOptions = {},
): Promise<ChildServer> {
  const bundle = await bundleEntry(entry);
  // FAWN_BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops.
  const profileDir = process.env.FAWN_BENCH_CPU_PROF;
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(
    process.execPath,
    ["--expose-gc", ...profile, bundle, ...(options.args ?? [])],
    {
      cwd: repoRoot,
      env: { ...process.env, FAWN_LOG_LEVEL: "silent", LOG_LEVEL: "error", ...options.env },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    },
  );
  const pending = new Map<number, (reply: IpcReply) => void>();
  let nextId = 1;
  child.on("message", (message: unknown) => {
    if (!isIpcReply(message)) return;
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  const ready = await waitForReady(child, options.startTimeoutMs ?? 60_000);
  return {
    url: ready.url,
    pid: ready.pid,
    request(type, body) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, (reply) =>
          reply.ok ? resolve(reply.body) : reject(new Error(reply.error ?? `${type} failed`)),
        );
        child.send({ id, type, body });
      });
    },
    stop: () => stopChild(child),
  };
}

function waitForReady(child: ChildProcess, timeoutMs: number) {
  return new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`child server not ready within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`child server exited before ready (code ${code}, signal ${signal})`));
    });
    child.on("message", (message: unknown) => {
      if (!isReadyMessage(message)) return;
      clearTimeout(timer);
      resolve({ url: message.url, pid: message.pid });
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
