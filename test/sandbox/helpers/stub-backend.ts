/** A backend whose sandboxes do nothing, for lifecycle tests that never run a command. */
import type {
  SandboxBackend,
  SandboxInstance,
  SandboxSpec,
} from "../../../src/sandbox/lifecycle/sandbox-backend.js";
import type { Sandbox } from "../../../src/sandbox/sandbox.js";

export function stubSandbox(id: string): Sandbox & { busy: boolean } {
  const unused = (): never => {
    throw new Error("stub sandbox: not used in this test");
  };
  return {
    id,
    busy: false,
    execute: async () => unused(),
    readFile: async () => unused(),
    readTextFile: async () => unused(),
    writeFile: async () => unused(),
    updateFile: async () => unused(),
    replaceInFile: async () => unused(),
    listDir: async () => unused(),
    glob: async () => unused(),
    grep: async () => unused(),
    maskHostPaths: (text) => text,
  };
}

export interface StubInstance extends SandboxInstance {
  readonly sandbox: Sandbox & { busy: boolean };
  destroyed: boolean;
  alive: boolean;
}

export function stubInstance(id: string): StubInstance {
  const instance: StubInstance = {
    sandbox: stubSandbox(id),
    destroyed: false,
    alive: true,
    isAlive: async () => instance.alive,
    destroy: async () => {
      instance.destroyed = true;
      instance.alive = false;
    },
  };
  return instance;
}

/** Records what the lifecycle asks of it; `discoverable` ids are "already running". */
export class StubBackend implements SandboxBackend {
  readonly kind = "local" as const;
  readonly created: string[] = [];
  readonly discovered: string[] = [];
  readonly instances = new Map<string, StubInstance>();
  readonly discoverable = new Set<string>();
  /** Resolves a pending create; tests replace it to hold creates open. */
  createGate: Promise<void> = Promise.resolve();

  async discover(spec: SandboxSpec): Promise<SandboxInstance | null> {
    if (!this.discoverable.has(spec.sandboxId)) return null;
    this.discovered.push(spec.sandboxId);
    return this.track(spec.sandboxId);
  }

  async create(spec: SandboxSpec): Promise<SandboxInstance> {
    await this.createGate;
    this.created.push(spec.sandboxId);
    return this.track(spec.sandboxId);
  }

  private track(id: string): StubInstance {
    const instance = stubInstance(id);
    this.instances.set(id, instance);
    return instance;
  }
}
