import { stat } from "node:fs/promises";
import type { MountTable } from "../files/mount-table.js";
import type { MountedFiles } from "../files/mounted-files.js";
import { MountedSandbox } from "../files/mounted-sandbox.js";
import { VIRTUAL_WORKSPACE } from "../files/thread-mounts.js";
import { assertValidEnv, ISOLATED_BASE_ENV } from "../process/command-env.js";
import type { CommandGroupRegistry } from "../process/command-group-registry.js";
import { runProcess } from "../process/run-process.js";
import type { CommandResult, ExecuteOptions } from "../sandbox.js";
import { SandboxDirectoryNotFoundError, SandboxUnavailableError } from "../sandbox-errors.js";
import { buildBwrapArgs, type ResourceLimits } from "./bwrap-args.js";
import { PhaseLock } from "./phase-lock.js";
import type { SystemEntry } from "./system-layout.js";

export interface BwrapSandboxOptions {
  bwrapPath: string;
  system: readonly SystemEntry[];
  allowNetwork: boolean;
  limits: ResourceLimits;
  /** Where running commands' process groups are recorded (reaped after a crash). */
  commandGroups?: CommandGroupRegistry;
}

/**
 * The isolated sandbox: each command runs in a fresh bubblewrap container — no network, its own
 * PID namespace, a read-only system, only the thread's workspace and outputs writable — and
 * everything it started dies when it ends or times out. File operations happen on the host side
 * and never overlap a running command of this sandbox (see `PhaseLock`).
 */
export class BwrapSandbox extends MountedSandbox {
  private readonly phases = new PhaseLock<"exec" | "files">();

  constructor(
    id: string,
    table: MountTable,
    files: MountedFiles,
    private readonly options: BwrapSandboxOptions,
  ) {
    super(id, table, files);
  }

  protected override runFileOp<T>(work: () => Promise<T>): Promise<T> {
    return this.phases.run("files", work);
  }

  protected async runCommand(command: string, options: ExecuteOptions): Promise<CommandResult> {
    const env = assertValidEnv(options.env);
    const cwd = options.cwd ?? VIRTUAL_WORKSPACE;
    const cwdHost = this.table.resolve(cwd);
    const info = await stat(cwdHost.hostPath).catch(() => null);
    if (!info?.isDirectory()) throw new SandboxDirectoryNotFoundError(cwd);
    const args = buildBwrapArgs({
      system: this.options.system,
      mounts: this.table.mounts,
      cwd: cwdHost.virtualPath,
      allowNetwork: this.options.allowNetwork,
      limits: this.options.limits,
      command,
    });
    const outcome = await this.phases.run(
      "exec",
      () =>
        runProcess({
          file: this.options.bwrapPath,
          args,
          env: { ...ISOLATED_BASE_ENV, ...env },
          timeoutMs: options.timeoutMs,
          maxOutputBytes: options.maxOutputBytes,
          signal: options.signal,
          statusFd: true,
          groups: this.options.commandGroups,
        }),
      options.signal,
    );
    // bwrap reports the child's pid once the sandbox is up; without it, bwrap itself failed.
    if (!outcome.timedOut && !outcome.status.includes('"child-pid"')) {
      throw new SandboxUnavailableError(
        `bubblewrap could not start the sandbox: ${this.maskHostPaths(outcome.stderr.trim()) || `exit ${outcome.exitCode}`}`,
      );
    }
    return {
      exitCode: outcome.exitCode,
      stdout: this.maskHostPaths(outcome.stdout),
      stderr: this.maskHostPaths(outcome.stderr),
      truncated: outcome.truncated,
      timedOut: outcome.timedOut,
    };
  }
}
