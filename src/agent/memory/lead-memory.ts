import type { StructuredToolInterface } from "@langchain/core/tools";
import { memoryBackendNotes } from "../../core/config/memory-config-schema.js";
import { type MemoryConfig, memoryConfigSchema } from "../../core/config/schema.js";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import { FawnPaths } from "../../core/paths.js";
import type { DocumentStore } from "../../ports/document-store.js";
import type { AgentMiddleware } from "../middlewares/types.js";
import { factBudgetOf } from "./fact-eviction.js";
import { renderMemoryInjection } from "./memory-injection.js";
import { createMemoryMiddleware } from "./memory-middleware.js";
import { MemoryStore } from "./memory-store.js";
import { createMemoryTools } from "./memory-tools.js";
import { memoryQueueFor } from "./memory-update-queue.js";

/**
 * Memory as the lead agent uses it (config `memory:`): the `<memory>` block for a run's prompt
 * and the middleware that queues each finished run for an update. The queue is the home's shared
 * one, so the gateway's "forget" and createFawn's shutdown flush reach the same updates.
 */
export class LeadMemory {
  readonly config: MemoryConfig;
  /** Null when there is no document store to keep memory in (memory is then off). */
  readonly store: MemoryStore | null;
  private readonly middleware: AgentMiddleware | null;
  private readonly toolMode: boolean;
  private readonly memoryTools: StructuredToolInterface[];
  private readonly logger: Logger;

  constructor(options: {
    home: string;
    /** Where memory is kept; without one memory is off (embedders that pass no stores). */
    documents: DocumentStore | null;
    config?: MemoryConfig | undefined;
    logger?: Logger;
  }) {
    const config = options.config ?? memoryConfigSchema.parse({});
    this.logger = options.logger ?? rootLogger;
    const store = options.documents
      ? new MemoryStore({
          documents: options.documents,
          legacyPaths: new FawnPaths(options.home),
          logger: this.logger,
        })
      : null;
    this.store = store;
    this.config = store ? config : { ...config, enabled: false };
    if (config.enabled && !store) {
      this.logger.warn({}, "memory is off: no document store was given to keep it in");
    }
    for (const note of memoryBackendNotes(config)) this.logger.warn({}, note);
    this.toolMode = store !== null && this.config.enabled && this.config.mode === "tool";
    this.memoryTools =
      store && this.toolMode ? createMemoryTools({ store, budget: factBudgetOf(this.config) }) : [];
    // Tool mode: the agent keeps its memory itself; no background update after each run.
    this.middleware =
      store && this.config.enabled && !this.toolMode
        ? createMemoryMiddleware({
            store,
            queue: memoryQueueFor(options.home, this.logger),
            config: this.config,
            logger: this.logger,
          })
        : null;
  }

  /** The middleware for the chain, or null when memory is off. */
  runMiddleware(): AgentMiddleware | null {
    return this.middleware;
  }

  /** `memory_search/add/update/delete` in tool mode, else none. */
  tools(): readonly StructuredToolInterface[] {
    return this.memoryTools;
  }

  /** The user's memory as a `<memory>` block for the prompt, or null (off, empty, unreadable). */
  async promptBlock(userId: string): Promise<string | null> {
    if (!this.store || !this.config.enabled || !this.config.injection_enabled) return null;
    try {
      return renderMemoryInjection(
        await this.store.read(userId),
        this.config.max_injection_tokens,
        {
          facts: !this.toolMode,
        },
      );
    } catch (error) {
      this.logger.warn({ error: describeError(error) }, "memory could not be read; not injected");
      return null;
    }
  }
}
