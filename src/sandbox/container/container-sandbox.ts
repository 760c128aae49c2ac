import type { MountTable } from "../files/mount-table.js";
import type { MountedFiles } from "../files/mounted-files.js";
import { MountedSandbox } from "../files/mounted-sandbox.js";
import { VIRTUAL_WORKSPACE } from "../files/thread-mounts.js";
import { assertValidEnv } from "../process/command-env.js";
import type { CommandResult, ExecuteOptions } from "../sandbox.js";
import { containerExecArgs } from "./docker-args.js";
import { runDocker } from "./docker-cli.js";

/** Extra time the client gets beyond the in-container deadline before we kill the client. */
const CLIENT_GRACE_MS = 5_000;

/**
 * A sandbox in a long-lived Docker container: commands go through `docker exec`, files through
 * the thread's folders it has bind-mounted (the same host folders the other providers use).
 */
export class ContainerSandbox extends MountedSandbox {
  constructor(
    id: string,
    table: MountTable,
    files: MountedFiles,
    private readonly container: { name: string; dockerPath: string },
  ) {
    super(id, table, files);
  }

  protected async runCommand(command: string, options: ExecuteOptions): Promise<CommandResult> {
    const env = assertValidEnv(options.env);
    const cwd = this.table.resolve(options.cwd ?? VIRTUAL_WORKSPACE).virtualPath;
    const started = Date.now();
    const outcome = await runDocker(
      this.container.dockerPath,
      containerExecArgs({
        name: this.container.name,
        cwd,
        envNames: Object.keys(env),
        timeoutSeconds: Math.max(1, Math.ceil(options.timeoutMs / 1000)),
        command,
      }),
      {
        env,
        timeoutMs: options.timeoutMs + CLIENT_GRACE_MS,
        maxOutputBytes: options.maxOutputBytes,
        signal: options.signal,
      },
    );
    // `timeout -s KILL` ends with 137 (or 124); only a deadline that passed makes it a timeout.
    const timedOut =
      outcome.timedOut ||
      ((outcome.exitCode === 137 || outcome.exitCode === 124) &&
        Date.now() - started >= options.timeoutMs);
    return {
      exitCode: outcome.exitCode,
      stdout: this.maskHostPaths(outcome.stdout),
      stderr: this.maskHostPaths(outcome.stderr),
      truncated: outcome.truncated,
      timedOut,
    };
  }
}
