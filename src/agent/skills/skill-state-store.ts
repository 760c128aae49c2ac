import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import type { FawnPaths } from "../../core/paths.js";
import type { DocumentStore } from "../../ports/document-store.js";

/** Document collection: one document per (user, switched-off skill). */
export const SKILL_STATE_COLLECTION = "skill_state";
/** Switches read per user (a user has at most this many skills switched off). */
const MAX_SWITCHES = 1000;

const legacyFileSchema = z.object({
  version: z.literal(1),
  skills: z.record(z.string(), z.object({ enabled: z.boolean() })),
});

/**
 * A user's skill switches in the document store, shared by every process. A skill without a
 * document is enabled (new skills show up active), so only switched-off skills have one.
 * The file an earlier Fawn kept (`<home>/users/<u>/skills/state.json`) is imported once, the
 * first time this process reads that user's switches, and renamed to `state.json.imported`;
 * a switch already in the store wins over the file's.
 */
export class SkillStateStore {
  private readonly logger: Logger;
  private readonly imported = new Map<string, Promise<void>>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly paths: FawnPaths,
    logger?: Logger,
  ) {
    this.logger = logger ?? rootLogger;
  }

  legacyFileOf(userId: string): string {
    return join(this.paths.userDir(userId), "skills", "state.json");
  }

  /** Names the user switched off. */
  async disabledNames(userId: string): Promise<ReadonlySet<string>> {
    await this.importLegacyFile(userId);
    const stored = await this.documents.list(SKILL_STATE_COLLECTION, userId, {
      limit: MAX_SWITCHES,
    });
    return new Set(
      stored.filter((document) => document.value.enabled === false).map((document) => document.key),
    );
  }

  async setEnabled(userId: string, name: string, enabled: boolean): Promise<void> {
    await this.importLegacyFile(userId);
    if (enabled) await this.documents.delete(SKILL_STATE_COLLECTION, userId, name);
    else await this.documents.put(SKILL_STATE_COLLECTION, userId, name, { enabled }, "any");
  }

  /** Forgets the switch of a skill that is gone (a deleted custom skill). */
  async forget(userId: string, name: string): Promise<void> {
    await this.documents.delete(SKILL_STATE_COLLECTION, userId, name);
  }

  private importLegacyFile(userId: string): Promise<void> {
    let pending = this.imported.get(userId);
    if (!pending) {
      pending = this.importOnce(userId).catch((error: unknown) => {
        // Not fatal: the store's switches stand; the next process start tries again.
        this.logger.warn({ userId, error: describeError(error) }, "skill state file not imported");
      });
      this.imported.set(userId, pending);
    }
    return pending;
  }

  private async importOnce(userId: string): Promise<void> {
    const file = this.legacyFileOf(userId);
    const text = await readFile(file, "utf8").catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (text === null) return;
    let parsed: z.output<typeof legacyFileSchema> | null = null;
    try {
      const result = legacyFileSchema.safeParse(JSON.parse(text));
      parsed = result.success ? result.data : null;
    } catch {
      parsed = null;
    }
    if (parsed === null) {
      this.logger.warn({ file }, "skill state file has an unknown shape; not imported");
    } else {
      for (const [name, entry] of Object.entries(parsed.skills)) {
        if (entry.enabled || name.length === 0 || name.length > 128) continue;
        // Expected revision 0: a switch another process already stored is kept.
        await this.documents.put(SKILL_STATE_COLLECTION, userId, name, { enabled: false }, 0);
      }
    }
    await rename(file, `${file}.imported`).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
    this.logger.info({ userId, file }, "skill switches imported into the database");
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}
