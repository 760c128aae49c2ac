import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { publishFileAtomically } from "../../core/atomic-file.js";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import type { FawnPaths } from "../../core/paths.js";

const stateSchema = z.object({
  version: z.literal(1),
  skills: z.record(z.string(), z.object({ enabled: z.boolean() })),
});

type SkillState = z.output<typeof stateSchema>;

/** One lock per state file for the whole process, so every store instance serializes writes. */
const fileLocks = new KeyedMutex<string>();

/**
 * A user's skill switches, `<home>/users/<u>/skills/state.json`. A skill without an entry is
 * enabled (new skills show up active). Writes are read-modify-write under a per-file lock and
 * published atomically, so a crash leaves the old file or the new one, never a mix.
 */
export class SkillStateStore {
  private readonly logger: Logger;

  constructor(
    private readonly paths: FawnPaths,
    logger?: Logger,
  ) {
    this.logger = logger ?? rootLogger;
  }

  fileOf(userId: string): string {
    return join(this.paths.userDir(userId), "skills", "state.json");
  }

  /** Names the user switched off. */
  async disabledNames(userId: string): Promise<ReadonlySet<string>> {
    const state = await this.read(userId);
    return new Set(
      Object.entries(state.skills)
        .filter(([, entry]) => !entry.enabled)
        .map(([name]) => name),
    );
  }

  async setEnabled(userId: string, name: string, enabled: boolean): Promise<void> {
    const file = this.fileOf(userId);
    await fileLocks.runExclusive(file, async () => {
      const state = await this.read(userId);
      state.skills[name] = { enabled };
      await mkdir(dirname(file), { recursive: true });
      await publishFileAtomically(file, `${JSON.stringify(state, null, 2)}\n`);
    });
  }

  private async read(userId: string): Promise<SkillState> {
    const file = this.fileOf(userId);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if (isMissing(error)) return emptyState();
      throw error;
    }
    try {
      const parsed = stateSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch (error) {
      this.logger.warn({ file, error: describeError(error) }, "skill state file is not JSON");
      return emptyState();
    }
    // A damaged file must not disable anything: every skill falls back to enabled.
    this.logger.warn({ file }, "skill state file has an unknown shape; treating all as enabled");
    return emptyState();
  }
}

function emptyState(): SkillState {
  return { version: 1, skills: {} };
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}
