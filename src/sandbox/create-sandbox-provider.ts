import { join } from "node:path";
import type { SandboxConfig, SandboxKind } from "../core/config/schema.js";
import type { Logger } from "../core/logger.js";
import type { FawnPaths } from "../core/paths.js";
import { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from "./bwrap/bwrap-args.js";
import { BwrapBackend } from "./bwrap/bwrap-backend.js";
import { probeBwrap } from "./bwrap/bwrap-probe.js";
import { ContainerBackend } from "./container/container-backend.js";
import { probeDocker } from "./container/docker-cli.js";
import type { ExtraMount } from "./files/thread-mounts.js";
import { ManagedSandboxProvider } from "./lifecycle/managed-provider.js";
import type { SandboxBackend } from "./lifecycle/sandbox-backend.js";
import { LocalBackend } from "./local/local-backend.js";
import {
  createOwnershipStore,
  leaseTimingOf,
  parseOwnershipConfig,
} from "./ownership/create-ownership-store.js";
import type { SandboxOwnershipStore } from "./ownership/ownership-store.js";
import { CommandGroupRegistry } from "./process/command-group-registry.js";
import { SandboxUnavailableError } from "./sandbox-errors.js";
import type { SandboxProviderKind } from "./sandbox-provider.js";

export interface CreateSandboxProviderOptions {
  config: SandboxConfig;
  paths: FawnPaths;
  /** `stream_bridge.redis_url`: processes sharing it share sandbox ownership too. */
  streamBridgeRedisUrl?: string;
  /** Host folder shown at `/mnt/skills` (default `$FAWN_HOME/skills`, when it exists). */
  skillsDir?: string | null;
  /** Overrides the configured ownership store (then the caller closes it). */
  ownership?: SandboxOwnershipStore;
  /** bubblewrap only: give commands the host network (default false). */
  allowNetwork?: boolean;
  limits?: Partial<ResourceLimits>;
  bwrapPath?: string;
  dockerPath?: string;
  logger?: Logger;
}

/** `auto` → bubblewrap where it really works here, else local (host bash only if allowed). */
export async function resolveSandboxKind(
  use: SandboxKind,
  options: { bwrapPath?: string } = {},
): Promise<SandboxProviderKind> {
  if (use !== "auto") return use;
  return (await probeBwrap(options.bwrapPath)).available ? "bwrap" : "local";
}

/** Builds the provider `sandbox.use` selects; an explicitly chosen provider that cannot work here fails with what is missing. */
export async function createSandboxProvider(
  options: CreateSandboxProviderOptions,
): Promise<ManagedSandboxProvider> {
  const { config, paths } = options;
  const kind = await resolveSandboxKind(config.use, options);
  const backend = await createBackend(kind, options);
  const ownershipConfig = parseOwnershipConfig(config.ownership);
  const ownership =
    options.ownership ??
    createOwnershipStore(ownershipConfig, {
      home: paths.home,
      streamBridgeRedisUrl: options.streamBridgeRedisUrl,
    });
  return new ManagedSandboxProvider({
    backend,
    paths,
    ownership,
    closeOwnershipOnShutdown: options.ownership === undefined,
    skillsDir: options.skillsDir === undefined ? `${paths.home}/skills` : options.skillsDir,
    extraMounts: config.mounts.map(
      (mount): ExtraMount => ({
        hostPath: mount.host_path,
        containerPath: mount.container_path,
        readOnly: mount.read_only,
      }),
    ),
    idleTimeoutMs: (config.idle_timeout ?? 600) * 1000,
    replicas: config.replicas ?? 3,
    renewalIntervalMs: leaseTimingOf(ownershipConfig).renewalIntervalMs,
    logger: options.logger,
  });
}

/**
 * The registry of this process's running host commands under `$FAWN_HOME/sandbox-commands`,
 * after killing what a crashed server of this home left running there.
 */
async function commandGroupsOf(
  options: CreateSandboxProviderOptions,
): Promise<CommandGroupRegistry> {
  const groups = new CommandGroupRegistry(join(options.paths.home, "sandbox-commands"));
  const killed = await groups.reapLeftovers();
  if (killed > 0) {
    options.logger?.warn({ killed }, "killed sandbox command processes left by a server that died");
  }
  return groups;
}

async function createBackend(
  kind: SandboxProviderKind,
  options: CreateSandboxProviderOptions,
): Promise<SandboxBackend> {
  const { config } = options;
  switch (kind) {
    case "local":
      return new LocalBackend({
        allowHostBash: config.allow_host_bash,
        commandGroups: await commandGroupsOf(options),
      });
    case "bwrap": {
      const probe = await probeBwrap(options.bwrapPath);
      if (!probe.available)
        throw new SandboxUnavailableError(`sandbox.use is bwrap, but ${probe.detail}`);
      return new BwrapBackend({
        bwrapPath: probe.bwrapPath,
        system: probe.system,
        allowNetwork: options.allowNetwork ?? false,
        limits: { ...DEFAULT_RESOURCE_LIMITS, ...options.limits },
        commandGroups: await commandGroupsOf(options),
      });
    }
    case "container": {
      const dockerPath = options.dockerPath ?? "docker";
      const probe = await probeDocker(dockerPath);
      if (!probe.available) {
        throw new SandboxUnavailableError(`sandbox.use is container, but ${probe.detail}`);
      }
      return new ContainerBackend({
        dockerPath,
        image: config.image,
        containerPrefix: config.container_prefix,
        environment: config.environment,
        allowNetwork: options.allowNetwork ?? false,
      });
    }
  }
}
