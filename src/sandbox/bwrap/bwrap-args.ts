import type { VirtualMount } from "../files/mount-table.js";
import type { SystemEntry } from "./system-layout.js";

/** Per-command resource limits, applied with `ulimit` inside the sandbox before the command. */
export interface ResourceLimits {
  openFiles: number;
  /**
   * RLIMIT_NPROC. The kernel counts it per user (per user namespace on recent kernels) and does
   * not apply it to root: a fork bomb is ended by the timeout kill, this only slows it down.
   */
  processes: number;
  fileSizeBytes: number;
  /** Virtual memory; null = unlimited (V8 and WebAssembly reserve large address ranges). */
  addressSpaceBytes: number | null;
}

export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = {
  openFiles: 1024,
  processes: 1024,
  fileSizeBytes: 1024 * 1024 * 1024,
  addressSpaceBytes: 8 * 1024 * 1024 * 1024,
};

export interface BwrapCommandSpec {
  system: readonly SystemEntry[];
  mounts: readonly VirtualMount[];
  /** Virtual working directory. */
  cwd: string;
  allowNetwork: boolean;
  limits: ResourceLimits;
  command: string;
  /** Size of the private /tmp (bytes). */
  tmpSizeBytes?: number;
}

/**
 * The bubblewrap command line for one command. Every namespace is unshared (network too, unless
 * allowed), the process tree gets its own PID namespace and dies with bwrap, the system is
 * read-only, and of the thread's folders only those mounted writable can be written; the root
 * itself is remounted read-only last, so nothing else is writable but a private /tmp.
 */
export function buildBwrapArgs(spec: BwrapCommandSpec): string[] {
  const args = [
    "--unshare-all",
    ...(spec.allowNetwork ? ["--share-net"] : []),
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--hostname",
    "sandbox",
    "--json-status-fd",
    "3",
  ];
  for (const entry of spec.system) {
    if (entry.kind === "symlink") args.push("--symlink", entry.target, entry.path);
    else args.push(entry.optional ? "--ro-bind-try" : "--ro-bind", entry.path, entry.path);
  }
  args.push("--proc", "/proc", "--dev", "/dev");
  args.push("--size", String(spec.tmpSizeBytes ?? 512 * 1024 * 1024), "--tmpfs", "/tmp");
  // Parents before children, so a child mount lands on top of its parent, not under it.
  const mounts = [...spec.mounts].sort((a, b) => a.virtualPath.length - b.virtualPath.length);
  for (const mount of mounts) {
    args.push(mount.readOnly ? "--ro-bind" : "--bind", mount.hostPath, mount.virtualPath);
  }
  args.push("--remount-ro", "/", "--chdir", spec.cwd, "--");
  args.push("/bin/bash", "-c", limitsPrelude(spec.limits), "sandbox", spec.command);
  return args;
}

/**
 * Sets soft and hard limits (so the command cannot raise them again), then replaces itself with
 * the command's own shell; the command arrives as `$1`, never spliced into this script.
 */
function limitsPrelude(limits: ResourceLimits): string {
  const settings = [
    "-c 0",
    `-n ${limits.openFiles}`,
    `-u ${limits.processes}`,
    `-f ${Math.max(1, Math.floor(limits.fileSizeBytes / 1024))}`,
  ];
  if (limits.addressSpaceBytes !== null) {
    settings.push(`-v ${Math.max(1, Math.floor(limits.addressSpaceBytes / 1024))}`);
  }
  const ulimits = settings.map((setting) => `ulimit -S -H ${setting}`).join(" && ");
  return `${ulimits} && exec /bin/bash -c "$1"`;
}
