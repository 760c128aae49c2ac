import { stat } from "node:fs/promises";
import type { MountTable } from "../files/mount-table.js";
import type { MountedFiles } from "../files/mounted-files.js";
import { MountedSandbox } from "../files/mounted-sandbox.js";
import { VIRTUAL_WORKSPACE } from "../files/thread-mounts.js";
import { assertValidEnv, hostEnvWithoutSecrets } from "../process/command-env.js";
import type { CommandGroupRegistry } from "../process/command-group-registry.js";
import { runProcess } from "../process/run-process.js";
import type { CommandResult, ExecuteOptions } from "../sandbox.js";
import { SandboxCommandRefusedError, SandboxDirectoryNotFoundError } from "../sandbox-errors.js";
import { assertSafeLocalCommand } from "./command-gate.js";

export const HOST_BASH_DISABLED_MESSAGE =
  "Host bash execution is disabled for the local sandbox provider: commands would run unconfined on this machine. " +
  "Use sandbox.use: bwrap (or auto on a host with bubblewrap) for an isolated sandbox, or set sandbox.allow_host_bash: true on a trusted machine.";

export interface LocalSandboxOptions {
  allowHostBash: boolean;
  shell?: string;
  /** Where running commands' process groups are recorded (reaped after a crash). */
  commandGroups?: CommandGroupRegistry;
}

/**
 * The development sandbox: commands run as host processes in the thread's workspace, with the
 * virtual folders rewritten to host paths on the way in and host paths masked on the way out.
 * It confines nothing, so bash is off unless `sandbox.allow_host_bash` says otherwise.
 */
export class LocalSandbox extends MountedSandbox {
  private readonly allowHostBash: boolean;
  private readonly shell: string;
  private readonly commandGroups: CommandGroupRegistry | undefined;

  constructor(id: string, table: MountTable, files: MountedFiles, options: LocalSandboxOptions) {
    super(id, table, files);
    this.allowHostBash = options.allowHostBash;
    this.shell = options.shell ?? "/bin/bash";
    this.commandGroups = options.commandGroups;
  }

  protected async runCommand(command: string, options: ExecuteOptions): Promise<CommandResult> {
    if (!this.allowHostBash) throw new SandboxCommandRefusedError(HOST_BASH_DISABLED_MESSAGE);
    const env = assertValidEnv(options.env);
    assertSafeLocalCommand(
      command,
      this.table.mounts.map((mount) => mount.virtualPath),
    );
    const cwdVirtual = options.cwd ?? VIRTUAL_WORKSPACE;
    const cwd = this.table.resolve(cwdVirtual).hostPath;
    const info = await stat(cwd).catch(() => null);
    if (!info?.isDirectory()) throw new SandboxDirectoryNotFoundError(cwdVirtual);
    const outcome = await runProcess({
      file: this.shell,
      args: ["-c", this.table.rewriteVirtualPaths(command)],
      env: { ...hostEnvWithoutSecrets(), ...env },
      cwd,
      timeoutMs: options.timeoutMs,
      maxOutputBytes: options.maxOutputBytes,
      signal: options.signal,
      groups: this.commandGroups,
    });
    return {
      exitCode: outcome.exitCode,
      stdout: this.maskHostPaths(outcome.stdout),
      stderr: this.maskHostPaths(outcome.stderr),
      truncated: outcome.truncated,
      timedOut: outcome.timedOut,
    };
  }
}
