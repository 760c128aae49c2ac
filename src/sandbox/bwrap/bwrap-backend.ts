import { MountTable } from "../files/mount-table.js";
import { MountedFiles } from "../files/mounted-files.js";
import type { SandboxBackend, SandboxInstance, SandboxSpec } from "../lifecycle/sandbox-backend.js";
import { BwrapSandbox, type BwrapSandboxOptions } from "./bwrap-sandbox.js";

/**
 * Bubblewrap sandboxes start a fresh container per command, so between commands there is nothing
 * running: create just prepares the mounts, discover has nothing to find, destroy nothing to stop.
 */
export class BwrapBackend implements SandboxBackend {
  readonly kind = "bwrap" as const;

  constructor(private readonly options: BwrapSandboxOptions) {}

  async discover(): Promise<SandboxInstance | null> {
    return null;
  }

  async create(spec: SandboxSpec): Promise<SandboxInstance> {
    const table = new MountTable(spec.mounts);
    const sandbox = new BwrapSandbox(spec.sandboxId, table, new MountedFiles(table), this.options);
    return { sandbox, isAlive: async () => true, destroy: async () => undefined };
  }
}
