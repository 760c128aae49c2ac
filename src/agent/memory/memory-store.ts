import { mkdir, readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { publishFileAtomically } from "../../core/atomic-file.js";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import type { FawnPaths } from "../../core/paths.js";
import { emptyMemory, type MemoryDocument, memoryDocumentSchema } from "./memory-document.js";

/** One lock per memory file for the whole process: the gateway and the updater share it. */
const fileLocks = new KeyedMutex<string>();

type Loaded = { memory: MemoryDocument; damaged: boolean };

/**
 * Per-user memory in `<home>/users/<u>/memory.json`. Every change is a read-modify-write under
 * the file's lock, published atomically (temp + rename), so concurrent updates for one user never
 * lose each other's facts and a crash never leaves half a file. A damaged file reads as empty
 * memory and is moved aside (not overwritten) before the next write.
 */
export class MemoryStore {
  private readonly logger: Logger;

  constructor(
    private readonly paths: FawnPaths,
    logger?: Logger,
  ) {
    this.logger = logger ?? rootLogger;
  }

  fileOf(userId: string): string {
    return join(this.paths.userDir(userId), "memory.json");
  }

  async read(userId: string): Promise<MemoryDocument> {
    return (await this.load(userId)).memory;
  }

  /**
   * Applies `change` to the current memory and stores the result; `null` means "no change" and
   * writes nothing. Returns the memory as stored afterwards.
   */
  async update(
    userId: string,
    change: (current: MemoryDocument) => MemoryDocument | null,
  ): Promise<MemoryDocument> {
    const file = this.fileOf(userId);
    return fileLocks.runExclusive(file, async () => {
      const loaded = await this.load(userId);
      const next = change(loaded.memory);
      if (next === null) return loaded.memory;
      const stored: MemoryDocument = {
        ...next,
        revision: loaded.memory.revision + 1,
        lastUpdated: new Date().toISOString(),
      };
      if (loaded.damaged) await this.setAside(file);
      await mkdir(this.paths.userDir(userId), { recursive: true });
      await publishFileAtomically(file, `${JSON.stringify(stored, null, 2)}\n`);
      return stored;
    });
  }

  /** Forgets everything (the revision keeps counting, so clients see the change). */
  clear(userId: string): Promise<MemoryDocument> {
    return this.update(userId, () => emptyMemory());
  }

  private async load(userId: string): Promise<Loaded> {
    const file = this.fileOf(userId);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if (isMissing(error)) return { memory: emptyMemory(), damaged: false };
      throw error;
    }
    try {
      const parsed = memoryDocumentSchema.safeParse(JSON.parse(text));
      if (parsed.success) return { memory: parsed.data, damaged: false };
      this.logger.warn({ file }, "memory file has an unknown shape; reading it as empty");
    } catch (error) {
      this.logger.warn({ file, error: describeError(error) }, "memory file is not JSON");
    }
    return { memory: emptyMemory(), damaged: true };
  }

  private async setAside(file: string): Promise<void> {
    const aside = `${file}.damaged-${Date.now()}`;
    await rename(file, aside).catch(() => undefined);
    this.logger.warn({ file, aside }, "damaged memory file set aside");
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}
