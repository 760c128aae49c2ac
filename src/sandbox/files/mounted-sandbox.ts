import type {
  CommandResult,
  DirEntry,
  ExecuteOptions,
  GlobOptions,
  GlobResult,
  GrepOptions,
  GrepResult,
  Sandbox,
} from "../sandbox.js";
import type { MountTable } from "./mount-table.js";
import type { MountedFiles } from "./mounted-files.js";

/**
 * What every Fawn sandbox shares: its files are the host folders behind its mounts, handled by
 * `MountedFiles`. Subclasses say how commands run, and may fence file operations (`runFileOp`).
 */
export abstract class MountedSandbox implements Sandbox {
  private runningCommands = 0;

  constructor(
    readonly id: string,
    protected readonly table: MountTable,
    protected readonly files: MountedFiles,
  ) {}

  get busy(): boolean {
    return this.runningCommands > 0;
  }

  async execute(command: string, options: ExecuteOptions): Promise<CommandResult> {
    this.runningCommands += 1;
    try {
      return await this.runCommand(command, options);
    } finally {
      this.runningCommands -= 1;
    }
  }

  /** How this kind of sandbox runs one command. */
  protected abstract runCommand(command: string, options: ExecuteOptions): Promise<CommandResult>;

  /** Hook around every file operation; the default runs it as is. */
  protected runFileOp<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.runFileOp(() => this.files.readFile(path));
  }

  readTextFile(path: string): Promise<string> {
    return this.runFileOp(() => this.files.readTextFile(path));
  }

  writeFile(
    path: string,
    data: string | Uint8Array,
    options?: { append?: boolean },
  ): Promise<void> {
    return this.runFileOp(() => this.files.writeFile(path, data, options));
  }

  updateFile(path: string, data: Uint8Array): Promise<void> {
    return this.runFileOp(() => this.files.writeFile(path, data));
  }

  replaceInFile(
    path: string,
    oldText: string,
    newText: string,
    options?: { replaceAll?: boolean },
  ): Promise<number> {
    return this.runFileOp(() => this.files.replaceInFile(path, oldText, newText, options));
  }

  listDir(path: string, options?: { maxDepth?: number }): Promise<DirEntry[]> {
    return this.runFileOp(() => this.files.listDir(path, options));
  }

  glob(path: string, pattern: string, options?: GlobOptions): Promise<GlobResult> {
    return this.runFileOp(() => this.files.glob(path, pattern, options));
  }

  grep(path: string, pattern: string, options?: GrepOptions): Promise<GrepResult> {
    return this.runFileOp(() => this.files.grep(path, pattern, options));
  }

  maskHostPaths(text: string): string {
    return this.table.maskHostPaths(text);
  }
}
