import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type {
  MetricsExposition,
  RunObserver,
  StreamSubscriberGauge,
} from "../../ports/run-metrics.js";
import type { ModelTokenUsage, RunStatus } from "../../ports/run-types.js";
import type { BridgeMeter, JournalMeter } from "./store-instruments.js";

/** What the gauges read at scrape time: the run manager's local records. */
export interface RunCensus {
  /** Runs this process executes that are pending or running. */
  active(): number;
  /** Of those, runs admitted but not yet running (waiting for a delay or a prior finalizer). */
  pending(): number;
}

/** What the sandbox gauges read at scrape time: the provider's registry (absent: zeros). */
export interface SandboxCensus {
  active(): number;
  warm(): number;
}

const BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Bounds the admitted-at table if a hook is ever missed (a run that never starts or ends). */
const MAX_TRACKED_RUNS = 10_000;

/**
 * Fawn's Prometheus metrics in a registry of its own (never prom-client's global one, so two
 * apps in one process, or tests, do not clash). Labels are kinds, never run, thread or user ids.
 */
export class FawnMetrics implements RunObserver, MetricsExposition, JournalMeter, BridgeMeter {
  readonly registry = new Registry();
  private sandboxes: SandboxCensus | null = null;
  private readonly journalWrite: Histogram<"outcome">;
  private readonly journalBatchSize: Histogram;
  private readonly publishLatency: Histogram;
  private readonly deliveryLag: Histogram;
  readonly streamSubscribers: StreamSubscriberGauge;
  private readonly admittedAt = new Map<string, number>();
  private readonly runsStarted: Counter<"graph">;
  private readonly runsFinished: Counter<"graph" | "status">;
  private readonly admission: Histogram;
  private readonly firstEventLatency: Histogram;
  private readonly tokens: Counter<"model" | "kind">;
  private readonly recovered: Counter<"kind">;

  constructor(census: RunCensus | null = null) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: "fawn_" });
    this.runsStarted = new Counter({
      name: "fawn_runs_started_total",
      help: "Runs whose worker this process launched, by graph.",
      labelNames: ["graph"],
      registers,
    });
    this.runsFinished = new Counter({
      name: "fawn_runs_finished_total",
      help: "Runs this process executed to an end, by graph and final status.",
      labelNames: ["graph", "status"],
      registers,
    });
    new Gauge({
      name: "fawn_runs_active",
      help: "Runs this process executes now (pending or running).",
      registers,
      collect() {
        this.set(census?.active() ?? 0);
      },
    });
    new Gauge({
      name: "fawn_runs_pending",
      help: "Runs this process admitted that are not running yet.",
      registers,
      collect() {
        this.set(census?.pending() ?? 0);
      },
    });
    this.admission = new Histogram({
      name: "fawn_run_admission_seconds",
      help: "Time to admit a run (multitask strategy, durable row).",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.firstEventLatency = new Histogram({
      name: "fawn_run_first_event_seconds",
      help: "Time from admitting a run to its first published event.",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const subscribers = new Gauge({
      name: "fawn_sse_subscribers",
      help: "Open SSE run streams served by this process.",
      registers,
    });
    this.streamSubscribers = { opened: () => subscribers.inc(), closed: () => subscribers.dec() };
    this.tokens = new Counter({
      name: "fawn_tokens_total",
      help: "Model tokens used by runs this process executed, by model and kind.",
      labelNames: ["model", "kind"],
      registers,
    });
    this.journalWrite = new Histogram({
      name: "fawn_journal_write_seconds",
      help: "Time of one journal batch write to the event store, by outcome (ok, failed).",
      labelNames: ["outcome"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.journalBatchSize = new Histogram({
      name: "fawn_journal_batch_events",
      help: "Events in one journal batch write.",
      buckets: BATCH_SIZE_BUCKETS,
      registers,
    });
    this.publishLatency = new Histogram({
      name: "fawn_bridge_publish_seconds",
      help: "Time to publish one event to the stream bridge.",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.deliveryLag = new Histogram({
      name: "fawn_bridge_delivery_lag_seconds",
      help: "Age of an event when this process hands it to a subscriber (Redis bridge; resumes replay older ones).",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const pool = (): SandboxCensus | null => this.sandboxes;
    const sandboxGauge = (name: string, help: string, read: (c: SandboxCensus) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const census = pool();
          this.set(census ? read(census) : 0);
        },
      });
    sandboxGauge("fawn_sandboxes_active", "Sandboxes in use by threads on this process.", (c) =>
      c.active(),
    );
    sandboxGauge("fawn_sandboxes_warm", "Idle sandboxes kept warm for their thread.", (c) =>
      c.warm(),
    );
    this.recovered = new Counter({
      name: "fawn_runs_recovered_total",
      help: "Runs recovered after their owner died: orphaned (taken over) or unsealed.",
      labelNames: ["kind"],
      registers,
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  runAdmitted(runId: string, _graph: string, latencyMs: number): void {
    this.admission.observe(latencyMs / 1000);
    if (this.admittedAt.size >= MAX_TRACKED_RUNS) this.admittedAt.clear();
    this.admittedAt.set(runId, performance.now());
  }

  runStarted(_runId: string, graph: string): void {
    this.runsStarted.inc({ graph });
  }

  firstEvent(runId: string): void {
    const since = this.admittedAt.get(runId);
    if (since === undefined) return;
    this.admittedAt.delete(runId);
    this.firstEventLatency.observe((performance.now() - since) / 1000);
  }

  runEnded(runId: string, graph: string, status: RunStatus): void {
    this.admittedAt.delete(runId);
    this.runsFinished.inc({ graph, status });
  }

  tokenUsage(byModel: Readonly<Record<string, ModelTokenUsage>>): void {
    for (const [model, usage] of Object.entries(byModel)) {
      if (usage.input_tokens > 0) this.tokens.inc({ model, kind: "input" }, usage.input_tokens);
      if (usage.output_tokens > 0) this.tokens.inc({ model, kind: "output" }, usage.output_tokens);
    }
  }

  runsRecovered(kind: "orphaned" | "unsealed", count: number): void {
    this.recovered.inc({ kind }, count);
  }

  /** Read the sandbox provider's pool at each scrape. */
  watchSandboxes(census: SandboxCensus): void {
    this.sandboxes = census;
  }

  journalBatch(events: number, seconds: number, ok: boolean): void {
    this.journalWrite.observe({ outcome: ok ? "ok" : "failed" }, seconds);
    this.journalBatchSize.observe(events);
  }

  bridgePublish(seconds: number): void {
    this.publishLatency.observe(seconds);
  }

  bridgeDelivery(lagSeconds: number): void {
    this.deliveryLag.observe(lagSeconds);
  }
}
