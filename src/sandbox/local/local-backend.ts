import { MountTable } from "../files/mount-table.js";
import { MountedFiles } from "../files/mounted-files.js";
import type { SandboxBackend, SandboxInstance, SandboxSpec } from "../lifecycle/sandbox-backend.js";
import { LocalSandbox, type LocalSandboxOptions } from "./local-sandbox.js";

/** Local sandboxes are plain objects over the thread's folders: nothing to discover or stop. */
export class LocalBackend implements SandboxBackend {
  readonly kind = "local" as const;

  constructor(private readonly options: LocalSandboxOptions) {}

  async discover(): Promise<SandboxInstance | null> {
    return null;
  }

  async create(spec: SandboxSpec): Promise<SandboxInstance> {
    const table = new MountTable(spec.mounts);
    const sandbox = new LocalSandbox(spec.sandboxId, table, new MountedFiles(table), this.options);
    return { sandbox, isAlive: async () => true, destroy: async () => undefined };
  }
}
