import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { HumanMessage } from "@langchain/core/messages";
import type { ChainValues } from "@langchain/core/utils/types";
import { describeError } from "../../core/errors.js";
import { type Json, toJson } from "../../core/json/serialize.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import type { RemoteJournalSummary } from "../../ports/run-execution.js";
import type { RunCompletionData } from "../../ports/run-types.js";
import { SerializedRunEvent } from "../../ports/serialized-run-event.js";
import type { WriteFence } from "../../ports/write-fence.js";
import { categoryOf, middlewareEventType, validateCatalogEvent } from "../event-catalog.js";
import { EventBatchWriter, type JournalEventStore } from "./event-batch-writer.js";
import { JournalMessages, presentedArtifacts } from "./journal-messages.js";
import { type CallerTags, callerOf, UsageLedger } from "./usage-ledger.js";

/** The current time as ISO text, formatted once per millisecond (a burst of events shares one). */
let lastTimestamp = { ms: Number.NaN, iso: "" };

function isoTimestampNow(): string {
  const ms = Date.now();
  if (ms !== lastTimestamp.ms) lastTimestamp = { ms, iso: new Date(ms).toISOString() };
  return lastTimestamp.iso;
}

export interface RunJournalOptions {
  eventStore: JournalEventStore;
  threadId: string;
  runId: string;
  userId: string | null;
  logger?: Logger;
  /** Buffered events that trigger a background flush (default 32). */
  flushThreshold?: number;
  trackTokenUsage?: boolean;
  /** The human messages the run request brought, with ids (`identifyRunInput`); none by default. */
  humanInput?: readonly HumanMessage[];
  /** Every batch is written under this fence (the run's owner, see `WriteFence`). */
  fence?: WriteFence;
  /** Called once when the store refused a batch for the fence: the run belongs to a peer now. */
  onOwnershipLost?: (reason: string) => void;
}

export interface MiddlewareRecord {
  name: string;
  hook: string;
  action: string;
  changes?: unknown;
}

/** Where an admitted producer writes its evidence. */
export interface EvidenceSink {
  recordMiddleware(tag: string, record: MiddlewareRecord): boolean;
}

export interface DeliveryContent {
  presented: number;
  paths: string[];
  by_tool: Record<string, string[]>;
}

/**
 * Buffers a run's durable events and writes them in batches. A LangChain callback handler turns
 * graph callbacks into catalog events.
 *
 * Guarantees: a batch whose write threw is never replayed (it may have committed), and its loss is
 * remembered (`drainedCleanly` turns false) so the run's evidence is sealed `partial` (see
 * `EventBatchWriter`); after `freeze()` no producer is admitted, and producers admitted before it
 * land before it returns.
 */
export class RunJournal extends BaseCallbackHandler {
  override name = "fawn_run_journal";
  override awaitHandlers = true;
  readonly threadId: string;
  readonly runId: string;
  readonly userId: string | null;
  protected readonly eventStore: JournalEventStore;
  protected readonly logger: Logger;
  private readonly writer: EventBatchWriter;
  private accepting = true;
  private closed = false;
  private pendingProducers = 0;
  private producerWaiters: Array<() => void> = [];
  private readonly rootRunIds = new Set<string>();
  /** The root graph's output (its state values at the end), when it ended without error. */
  private rootOutputs: Readonly<Record<string, unknown>> | null = null;
  readonly usage: UsageLedger;
  readonly messages: JournalMessages;
  /** What an execution worker's journal recorded for this run, once it ended there. */
  private remote: RemoteJournalSummary | null = null;
  private readonly artifacts = new Map<string, Set<string>>();
  /** Event types already checked against the catalog (the category is derived from the type). */
  private readonly validatedTypes = new Set<string>();

  constructor(options: RunJournalOptions) {
    super();
    this.eventStore = options.eventStore;
    this.threadId = options.threadId;
    this.runId = options.runId;
    this.userId = options.userId;
    this.logger = (options.logger ?? rootLogger).child({
      component: "run-journal",
      runId: options.runId,
    });
    this.writer = new EventBatchWriter({
      eventStore: options.eventStore,
      logger: this.logger,
      flushThreshold: options.flushThreshold ?? 32,
      fence: options.fence,
      onFenced: (reason) => {
        this.accepting = false;
        options.onOwnershipLost?.(reason);
      },
    });
    this.usage = new UsageLedger(options.trackTokenUsage ?? true);
    this.messages = new JournalMessages(options.humanInput);
  }

  /** False once any batch failed or was dropped: the evidence cannot be proven complete. */
  get drainedCleanly(): boolean {
    const remoteClean = this.remote?.drainedCleanly ?? true;
    return remoteClean && this.writer.clean && this.pendingProducers === 0;
  }

  get acceptingEvidence(): boolean {
    return this.accepting;
  }

  get pendingProducerCount(): number {
    return this.pendingProducers;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * The graph's state values as its root run ended (LangGraph hands the output channels to the
   * root chain's end), or null when it did not end normally. What the head checkpoint holds after
   * a successful run, without reading it back.
   */
  finalValues(): Readonly<Record<string, unknown>> | null {
    return this.rootOutputs;
  }

  // ---- writing ----------------------------------------------------------------------------

  /** Buffer one catalog event; a full buffer flushes in the background. */
  append(eventType: string, content: unknown, metadata: Record<string, unknown> = {}): boolean {
    if (!this.accepting) {
      this.logger.warn({ eventType }, "journal frozen; event rejected");
      return false;
    }
    this.enqueue(eventType, content, metadata);
    return true;
  }

  /**
   * The event in its final form: content and metadata converted to JSON values and serialized
   * here, while the batch before it is being written, so the store's write path reuses the text.
   */
  private enqueue(eventType: string, content: unknown, metadata: Record<string, unknown>): void {
    if (this.writer.fenced) return;
    const category = categoryOf(eventType);
    if (!category) throw new Error(`event type ${eventType} is not in the catalog`);
    const event = new SerializedRunEvent({
      thread_id: this.threadId,
      run_id: this.runId,
      event_type: eventType,
      category,
      content,
      metadata: toJson(metadata) as Record<string, Json>,
      created_at: isoTimestampNow(),
      user_id: this.userId,
    });
    if (!this.validatedTypes.has(eventType)) {
      validateCatalogEvent(event);
      this.validatedTypes.add(eventType);
    }
    this.writer.push(event);
  }

  /**
   * Write everything buffered so far, and whatever is appended meanwhile, in batches, in order.
   * Rejects if a batch written while it waited failed.
   */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  flushInBackground(): void {
    this.writer.flushInBackground();
  }

  /** A middleware decision (`middleware:{tag}`), admitted only before the freeze. */
  recordMiddleware(tag: string, record: MiddlewareRecord): boolean {
    return this.append(middlewareEventType(tag), { ...record, changes: record.changes ?? null });
  }

  /**
   * Admit an asynchronous producer (work that lands evidence later, e.g. a completion hook's
   * background task). Admission happens now, while the journal still accepts evidence; the
   * producer then writes through `sink`, which keeps working after the freeze, and the freeze
   * waits until every admitted producer has finished. Returns false when the journal is frozen.
   */
  admitProducer(produce: (sink: EvidenceSink) => Promise<void>): boolean {
    if (!this.accepting) {
      this.logger.warn({}, "journal frozen; producer rejected");
      return false;
    }
    this.pendingProducers += 1;
    const sink: EvidenceSink = {
      recordMiddleware: (tag, record) => this.appendAdmitted(middlewareEventType(tag), record),
    };
    void Promise.resolve()
      .then(() => produce(sink))
      .catch((error: unknown) => {
        this.logger.warn({ error: describeError(error) }, "admitted evidence producer failed");
      })
      .finally(() => {
        this.pendingProducers -= 1;
        if (this.pendingProducers === 0) {
          for (const wake of this.producerWaiters.splice(0)) wake();
        }
      });
    return true;
  }

  private appendAdmitted(eventType: string, record: MiddlewareRecord): boolean {
    if (this.closed) return false;
    this.enqueue(eventType, { ...record, changes: record.changes ?? null }, {});
    return true;
  }

  /** Stop admitting evidence, wait for admitted producers, then flush. */
  async freeze(): Promise<void> {
    this.accepting = false;
    while (this.pendingProducers > 0) {
      await new Promise<void>((resolve) => this.producerWaiters.push(resolve));
    }
    await this.flush();
  }

  /**
   * Final teardown: stop admitting evidence and write what was never attempted. A fenced run
   * discards its buffer instead: it may make no further durable writes.
   */
  async close(options: { discard?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.accepting = false;
    if (options.discard) this.writer.discardBuffered();
    try {
      await this.flush();
    } finally {
      this.closed = true;
    }
  }

  // ---- delivery and completion ------------------------------------------------------------

  recordPresentedArtifact(path: string, tool: string): void {
    const paths = this.artifacts.get(tool) ?? new Set<string>();
    paths.add(path);
    this.artifacts.set(tool, paths);
  }

  deliveryContent(): DeliveryContent {
    const byTool: Record<string, string[]> = {};
    const all = new Set<string>();
    for (const [tool, paths] of this.artifacts) {
      byTool[tool] = [...paths].sort();
      for (const path of paths) all.add(path);
    }
    return { presented: all.size, paths: [...all].sort(), by_tool: byTool };
  }

  completionData(): RunCompletionData {
    // The graph's callbacks reached the worker's journal, not this one.
    if (this.remote) return this.remote.completion;
    return { ...this.usage.totals(), ...this.messages.summary() };
  }

  /**
   * Take over what the journal of the run's execution worker recorded (its events are written
   * already): presented files, usage and message counts, and whether its batches all landed.
   */
  adoptRemote(summary: RemoteJournalSummary): void {
    this.remote = summary;
    for (const [tool, paths] of Object.entries(summary.delivery.by_tool)) {
      for (const path of paths) this.recordPresentedArtifact(path, tool);
    }
  }

  // ---- LangChain callbacks ----------------------------------------------------------------

  // @langchain/core's CallbackManager calls this as (chain, inputs, runId, parentRunId, tags,
  // metadata, runType, runName) — not in the order its type declaration lists.
  override handleChainStart(
    chain: { id?: string[]; name?: string },
    _inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    _metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    if (parentRunId) return;
    this.rootRunIds.add(runId);
    const name = runName ?? chain.name ?? chain.id?.at(-1) ?? "unknown";
    this.append("run.start", { chain: name }, { caller: callerOf(tags) });
    for (const human of this.messages.runHumanInput()) {
      this.append("llm.human.input", human, { caller: "lead_agent" });
    }
  }

  override handleChainEnd(outputs: ChainValues, runId: string, parentRunId?: string): void {
    if (parentRunId || !this.rootRunIds.has(runId)) return;
    this.rootOutputs = outputs;
    this.append("run.end", outputs, { status: "success" });
    this.flushInBackground();
  }

  override handleChainError(error: Error, runId: string, parentRunId?: string): void {
    if (parentRunId || !this.rootRunIds.has(runId)) return;
    this.append("run.error", describeError(error), { error_type: error.name });
    this.flushInBackground();
  }

  override handleChatModelStart(
    _llm: unknown,
    _messages: import("@langchain/core/messages").BaseMessage[][],
    runId: string,
  ): void {
    this.usage.startCall(runId);
  }

  override handleLLMEnd(
    output: import("@langchain/core/outputs").LLMResult,
    runId: string,
    _parentRunId?: string,
    tags?: string[],
  ): void {
    const caller = callerOf(tags);
    for (const generations of output.generations) {
      for (const generation of generations) {
        const message = "message" in generation ? generation.message : undefined;
        if (!message || typeof message !== "object") continue;
        const recorded = this.usage.recordMessage(runId, caller as CallerTags, message);
        this.messages.noteAiMessage(caller, message);
        this.append("llm.ai.response", message, {
          caller,
          usage: recorded.usage,
          latency_ms: recorded.latencyMs,
          llm_call_index: recorded.callIndex,
        });
      }
    }
  }

  override handleLLMError(
    error: Error,
    _runId: string,
    _parentRunId?: string,
    tags?: string[],
  ): void {
    this.append("llm.error", describeError(error), { caller: callerOf(tags) });
  }

  override handleToolEnd(
    output: unknown,
    _runId: string,
    _parentRunId?: string,
    tags?: string[],
  ): void {
    // The caller tells a sub-agent's tool results from the conversation's (the message pages).
    const caller = callerOf(tags);
    for (const message of this.messages.toolResults(output)) {
      this.append("llm.tool.result", message, { caller });
    }
    // A tool that adds to the thread's `artifacts` (present_files) is what delivery counts.
    const presented = presentedArtifacts(output);
    if (presented) {
      for (const path of presented.paths) this.recordPresentedArtifact(path, presented.tool);
    }
  }
}
