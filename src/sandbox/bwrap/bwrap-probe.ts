import { errnoCode } from "../files/fs-error-mapping.js";
import { ISOLATED_BASE_ENV } from "../process/command-env.js";
import { runProcess } from "../process/run-process.js";
import { buildBwrapArgs, DEFAULT_RESOURCE_LIMITS } from "./bwrap-args.js";
import { readSystemLayout, type SystemEntry } from "./system-layout.js";

export interface BwrapProbeResult {
  available: boolean;
  /** One line for `fawn doctor`: what works, or what is missing and how to fix it. */
  detail: string;
  bwrapPath: string;
  /** The host system layout the sandbox shows (read once, reused by every command). */
  system: SystemEntry[];
}

const PROBE_TIMEOUT_MS = 10_000;
const probes = new Map<string, Promise<BwrapProbeResult>>();

/**
 * Whether bubblewrap can build a real sandbox on this host — the same flags the provider uses,
 * running `true` — asked once per process and binary (async; the answer is cached).
 */
export function probeBwrap(bwrapPath = "bwrap"): Promise<BwrapProbeResult> {
  let probe = probes.get(bwrapPath);
  if (!probe) {
    probe = runProbe(bwrapPath);
    probes.set(bwrapPath, probe);
  }
  return probe;
}

async function runProbe(bwrapPath: string): Promise<BwrapProbeResult> {
  const system = await readSystemLayout();
  const args = buildBwrapArgs({
    system,
    mounts: [],
    cwd: "/",
    allowNetwork: false,
    limits: DEFAULT_RESOURCE_LIMITS,
    command: "true",
  });
  const result = (available: boolean, detail: string): BwrapProbeResult => ({
    available,
    detail,
    bwrapPath,
    system,
  });
  try {
    const outcome = await runProcess({
      file: bwrapPath,
      args,
      env: { ...ISOLATED_BASE_ENV },
      timeoutMs: PROBE_TIMEOUT_MS,
      maxOutputBytes: 4096,
      statusFd: true,
    });
    if (outcome.exitCode === 0) {
      return result(true, `bubblewrap works (${bwrapPath}): isolated sandboxes available`);
    }
    const why = outcome.timedOut ? "it did not answer in time" : outcome.stderr.trim();
    return result(
      false,
      `bubblewrap is installed but cannot create a sandbox here: ${why || `exit ${outcome.exitCode}`}. ` +
        "It needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0) " +
        "or, inside a container, permission to create namespaces.",
    );
  } catch (error) {
    if (errnoCode(error) === "ENOENT") {
      return result(
        false,
        `bubblewrap is not installed (no ${bwrapPath} on PATH); install it, e.g. apt-get install bubblewrap`,
      );
    }
    return result(false, `bubblewrap could not be started: ${String(error)}`);
  }
}

/** Tests only: forget cached answers. */
export function forgetBwrapProbes(): void {
  probes.clear();
}
