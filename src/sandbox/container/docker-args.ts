import type { VirtualMount } from "../files/mount-table.js";

export interface ContainerRunSpec {
  name: string;
  image: string;
  sandboxId: string;
  mounts: readonly VirtualMount[];
  allowNetwork: boolean;
  /** `uid:gid` the container runs as, so files it writes into the thread's folders are ours. */
  user?: string;
  /** Names only: values come from the client's environment (never on the command line). */
  envNames: readonly string[];
  pidsLimit: number;
  memory?: string;
}

export const SANDBOX_LABEL = "fawn.sandbox";

/**
 * `docker run` for a long-lived sandbox container that idles (`sleep infinity`) while commands
 * arrive through `docker exec`: no network unless allowed, no capabilities, no privilege gain,
 * bounded processes, a read-only root with a private /tmp, the thread's folders bind-mounted.
 */
export function containerRunArgs(spec: ContainerRunSpec): string[] {
  const args = ["run", "-d", "--name", spec.name, "--label", `${SANDBOX_LABEL}=${spec.sandboxId}`];
  args.push("--network", spec.allowNetwork ? "bridge" : "none");
  args.push("--cap-drop", "ALL", "--security-opt", "no-new-privileges");
  args.push("--pids-limit", String(spec.pidsLimit), "--read-only", "--tmpfs", "/tmp");
  if (spec.memory) args.push("--memory", spec.memory);
  if (spec.user) args.push("--user", spec.user);
  for (const name of spec.envNames) args.push("-e", name);
  // The /mnt/user-data root only holds the three thread folders; docker creates those mount points.
  for (const mount of spec.mounts) {
    if (mount.virtualPath === "/mnt/user-data") continue;
    const readOnly = mount.readOnly ? ",readonly" : "";
    args.push("--mount", `type=bind,src=${mount.hostPath},dst=${mount.virtualPath}${readOnly}`);
  }
  args.push(spec.image, "sleep", "infinity");
  return args;
}

/**
 * `docker exec` of one command. GNU `timeout` (without --foreground) signals the command's whole
 * process group inside the container, so background children die at the deadline too.
 */
export function containerExecArgs(options: {
  name: string;
  cwd: string;
  envNames: readonly string[];
  timeoutSeconds: number;
  command: string;
}): string[] {
  const args = ["exec", "-w", options.cwd];
  for (const name of options.envNames) args.push("-e", name);
  args.push(options.name, "timeout", "-s", "KILL", `${options.timeoutSeconds}s`);
  args.push("bash", "-c", options.command);
  return args;
}
