/**
 * The `Sandbox` contract: one thread's place to run commands and touch files. Every path is
 * virtual — `/mnt/user-data/{workspace,uploads,outputs}` and read-only `/mnt/skills` — and mapped
 * per thread by the provider; a path that leaves its mount is refused with `PathEscapeError`.
 * Failures throw the typed errors of `sandbox-errors.ts`; the agent's tools turn them into text.
 */

export interface ExecuteOptions {
  /** Wall-clock limit; at expiry the command's whole process tree is killed. */
  timeoutMs: number;
  /** Bytes kept of stdout and of stderr each; the rest is read and dropped. */
  maxOutputBytes: number;
  /** Extra environment (names `^[A-Za-z_][A-Za-z0-9_]*$`); never part of the command string. */
  env?: Record<string, string>;
  /** Virtual working directory (default `/mnt/user-data/workspace`). */
  cwd?: string;
  /** Aborting kills the command and rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface CommandResult {
  /** The exit status; 128 + N when the command died of signal N (137 after a timeout kill). */
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Some output was dropped because of `maxOutputBytes`. */
  truncated: boolean;
  timedOut: boolean;
}

export type DirEntryType = "file" | "directory" | "symlink" | "other";

export interface DirEntry {
  /** Virtual path. */
  path: string;
  type: DirEntryType;
  /** 1 for children of the listed directory, 2 for grandchildren, … */
  depth: number;
}

export interface GlobOptions {
  includeDirs?: boolean;
  /** Default 200, at most 1000; the tool applies the configured limit (`effectiveMaxResults`). */
  maxResults?: number;
}

export interface GlobResult {
  /** Virtual paths, sorted. */
  paths: string[];
  truncated: boolean;
}

export interface GrepOptions {
  /** Only files whose path relative to the search root matches this glob. */
  glob?: string;
  /** Treat the pattern as plain text, not a regular expression. */
  literal?: boolean;
  caseSensitive?: boolean;
  /** Default 100, at most 500; the tool applies the configured limit (`effectiveMaxResults`). */
  maxResults?: number;
}

export interface GrepMatch {
  /** Virtual path. */
  path: string;
  /** 1-based. */
  lineNumber: number;
  line: string;
}

export interface GrepResult {
  matches: GrepMatch[];
  truncated: boolean;
}

export interface Sandbox {
  readonly id: string;
  /** A command is running right now (the idle reaper leaves such a sandbox alone). */
  readonly busy: boolean;
  execute(command: string, options: ExecuteOptions): Promise<CommandResult>;
  /** Whole file as bytes (at most 100 MiB). */
  readFile(path: string): Promise<Uint8Array>;
  /** Whole file as UTF-8 text; `SandboxNotTextError` when it is not valid UTF-8. */
  readTextFile(path: string): Promise<string>;
  /** Creates parent folders; replaces the file atomically unless `append`. */
  writeFile(path: string, data: string | Uint8Array, options?: { append?: boolean }): Promise<void>;
  /** Replaces the whole file with `data` (binary-safe `writeFile`). */
  updateFile(path: string, data: Uint8Array): Promise<void>;
  /**
   * str_replace: replaces the first (or every) occurrence of `oldText` and returns how many were
   * replaced; an empty `oldText` changes nothing and returns 0. `StringNotFoundError` when absent.
   */
  replaceInFile(
    path: string,
    oldText: string,
    newText: string,
    options?: { replaceAll?: boolean },
  ): Promise<number>;
  /** Tree down to `maxDepth` (default 2); noise such as `.git` and `node_modules` is skipped. */
  listDir(path: string, options?: { maxDepth?: number }): Promise<DirEntry[]>;
  glob(path: string, pattern: string, options?: GlobOptions): Promise<GlobResult>;
  grep(path: string, pattern: string, options?: GrepOptions): Promise<GrepResult>;
  /** Host paths in `text` shown as their virtual paths (for messages that may quote them). */
  maskHostPaths(text: string): string;
}
