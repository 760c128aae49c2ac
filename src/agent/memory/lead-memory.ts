import type { StructuredToolInterface } from "@langchain/core/tools";
import { type MemoryConfig, memoryConfigSchema } from "../../core/config/schema.js";
import { describeError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import { FawnPaths } from "../../core/paths.js";
import type { AgentMiddleware } from "../middlewares/types.js";
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
  readonly store: MemoryStore;
  private readonly middleware: AgentMiddleware | null;
  private readonly toolMode: boolean;
  private readonly memoryTools: StructuredToolInterface[];
  private readonly logger: Logger;

  constructor(options: { home: string; config?: MemoryConfig | undefined; logger?: Logger }) {
    this.config = options.config ?? memoryConfigSchema.parse({});
    this.logger = options.logger ?? rootLogger;
    this.store = new MemoryStore(new FawnPaths(options.home), this.logger);
    this.toolMode = this.config.enabled && this.config.mode === "tool";
    this.memoryTools = this.toolMode
      ? createMemoryTools({ store: this.store, maxFacts: this.config.max_facts })
      : [];
    // Tool mode: the agent keeps its memory itself; no background update after each run.
    this.middleware =
      this.config.enabled && !this.toolMode
        ? createMemoryMiddleware({
            store: this.store,
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
    if (!this.config.enabled || !this.config.injection_enabled) return null;
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
