import { sleep } from "../../core/async/deadline.js";
import { ConfigError } from "../../core/errors.js";
import { MountTable } from "../files/mount-table.js";
import { MountedFiles } from "../files/mounted-files.js";
import type { SandboxBackend, SandboxInstance, SandboxSpec } from "../lifecycle/sandbox-backend.js";
import { SandboxUnavailableError } from "../sandbox-errors.js";
import { ContainerSandbox } from "./container-sandbox.js";
import { containerRunArgs } from "./docker-args.js";
import { runDocker } from "./docker-cli.js";

export interface ContainerBackendOptions {
  dockerPath?: string;
  /** Needs bash and GNU coreutils (`timeout`); default `python:3.12-slim-bookworm`. */
  image?: string;
  /** Container names are `<prefix>-<sandbox id>` (default `fawn-sandbox`). */
  containerPrefix?: string;
  allowNetwork?: boolean;
  /** Environment set in every container; values starting with `$` are read from the host env. */
  environment?: Record<string, string>;
  pidsLimit?: number;
  memory?: string;
  readyTimeoutMs?: number;
}

export const DEFAULT_CONTAINER_IMAGE = "python:3.12-slim-bookworm";

/**
 * One Docker container per sandbox id (reference AIO-style): discover a running one by its
 * deterministic name, otherwise create it and wait until it runs. Any process computing the
 * same id finds the same container.
 */
export class ContainerBackend implements SandboxBackend {
  readonly kind = "container" as const;
  private readonly dockerPath: string;

  constructor(private readonly options: ContainerBackendOptions = {}) {
    this.dockerPath = options.dockerPath ?? "docker";
  }

  containerName(sandboxId: string): string {
    return `${this.options.containerPrefix ?? "fawn-sandbox"}-${sandboxId}`;
  }

  async discover(spec: SandboxSpec, signal?: AbortSignal): Promise<SandboxInstance | null> {
    const name = this.containerName(spec.sandboxId);
    const state = await this.inspectRunning(name, signal);
    if (state === "running") return this.instance(spec, name);
    if (state === "stopped") await this.remove(name);
    return null;
  }

  async create(spec: SandboxSpec, signal?: AbortSignal): Promise<SandboxInstance> {
    const name = this.containerName(spec.sandboxId);
    for (const mount of spec.mounts) {
      if (mount.hostPath.includes(",")) {
        throw new ConfigError(`Container mounts cannot use host paths with ",": ${mount.hostPath}`);
      }
    }
    const environment = this.environment();
    const run = await runDocker(
      this.dockerPath,
      containerRunArgs({
        name,
        image: this.options.image ?? DEFAULT_CONTAINER_IMAGE,
        sandboxId: spec.sandboxId,
        mounts: spec.mounts,
        allowNetwork: this.options.allowNetwork ?? false,
        user: currentUser(),
        envNames: Object.keys(environment),
        pidsLimit: this.options.pidsLimit ?? 1024,
        memory: this.options.memory,
      }),
      { env: environment, timeoutMs: 300_000, signal },
    );
    if (run.exitCode !== 0) {
      // Another process created it first: adopt theirs.
      if (/already in use/i.test(run.stderr)) {
        const found = await this.discover(spec, signal);
        if (found) return found;
      }
      throw new SandboxUnavailableError(
        `docker run for sandbox ${spec.sandboxId} failed: ${run.stderr.trim() || `exit ${run.exitCode}`}`,
      );
    }
    const instance = this.instance(spec, name);
    const readyBy = Date.now() + (this.options.readyTimeoutMs ?? 60_000);
    while ((await this.inspectRunning(name, signal)) !== "running") {
      if (Date.now() >= readyBy) {
        await instance.destroy().catch(() => undefined);
        throw new SandboxUnavailableError(
          `Sandbox ${spec.sandboxId} failed to become ready in time.`,
        );
      }
      await sleep(250, signal);
    }
    return instance;
  }

  private instance(spec: SandboxSpec, name: string): SandboxInstance {
    const table = new MountTable(spec.mounts);
    const sandbox = new ContainerSandbox(spec.sandboxId, table, new MountedFiles(table), {
      name,
      dockerPath: this.dockerPath,
    });
    return {
      sandbox,
      isAlive: async () => (await this.inspectRunning(name)) === "running",
      destroy: () => this.remove(name),
    };
  }

  private async inspectRunning(
    name: string,
    signal?: AbortSignal,
  ): Promise<"running" | "stopped" | "absent"> {
    const outcome = await runDocker(
      this.dockerPath,
      ["inspect", "--type", "container", "--format", "{{.State.Running}}", name],
      { timeoutMs: 15_000, signal },
    );
    if (outcome.exitCode !== 0) {
      if (/no such (object|container)/i.test(outcome.stderr)) return "absent";
      throw new SandboxUnavailableError(
        `docker inspect ${name} failed: ${outcome.stderr.trim() || `exit ${outcome.exitCode}`}`,
      );
    }
    return outcome.stdout.trim() === "true" ? "running" : "stopped";
  }

  private async remove(name: string): Promise<void> {
    const outcome = await runDocker(this.dockerPath, ["rm", "-f", name], { timeoutMs: 120_000 });
    if (outcome.exitCode !== 0 && !/no such container/i.test(outcome.stderr)) {
      throw new SandboxUnavailableError(`docker rm ${name} failed: ${outcome.stderr.trim()}`);
    }
  }

  private environment(): Record<string, string> {
    const resolved: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.options.environment ?? {})) {
      resolved[name] = value.startsWith("$") ? (process.env[value.slice(1)] ?? "") : value;
    }
    return resolved;
  }
}

function currentUser(): string | undefined {
  return typeof process.getuid === "function" && typeof process.getgid === "function"
    ? `${process.getuid()}:${process.getgid()}`
    : undefined;
}
