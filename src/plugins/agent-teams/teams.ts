import {
  AgentRunError,
  type AgentRuns,
  type ExtensionService,
  type ExtensionServiceDeps,
  type PluginDatabase,
} from "../../extensions/api/index.js";
import { ArtifactCopyError, advanceJob } from "./advance.js";
import type { TeamsConfig } from "./config.js";
import { TimeoutError, withWorkerDeadline } from "./deadline.js";
import { findJob, finishJob } from "./jobs.js";
import { ServiceLease } from "./lease.js";
import { isTerminal, type Job, NAMESPACE, type Team } from "./model.js";
import { teamsSettings } from "./settings.js";
import { TeamsStore } from "./store.js";

/**
 * The teams service: owns the store, the run handles of connected teams, and the tick that
 * advances jobs. Only the holder of the service lease ticks; any instance serves actions.
 */
export class Teams implements ExtensionService {
  readonly name = "teams";
  readonly tickIntervalMs = teamsSettings.tickIntervalMs;
  available = false;
  /** Workers of the tick in progress, and the ids of the jobs they advance. */
  readonly workers = new Set<Promise<void>>();
  readonly inFlight = new Set<string>();
  private readonly handles = new Map<string, AgentRuns>();
  private database: PluginDatabase | null = null;
  private storeRef: TeamsStore | null = null;
  private lease: ServiceLease | null = null;
  private deps: ExtensionServiceDeps | null = null;
  private ticking: AbortController | null = null;

  constructor(readonly config: TeamsConfig) {}

  get store(): TeamsStore {
    if (this.storeRef === null || !this.available) {
      throw new Error("Agent teams are unavailable: the teams service is not running.");
    }
    return this.storeRef;
  }

  async start(deps: ExtensionServiceDeps): Promise<void> {
    const path = this.config.storagePath;
    this.database = await deps.openDatabase(path === null ? undefined : { sqlitePath: path });
    const store = new TeamsStore(this.database);
    await store.migrate();
    this.storeRef = store;
    this.lease = new ServiceLease(
      store,
      Date.now,
      () => this.config.leaseSeconds ?? teamsSettings.leaseSeconds,
    );
    this.deps = deps;
    this.available = true;
  }

  async stop(): Promise<void> {
    this.available = false;
    this.ticking?.abort(new Error("The teams service is stopping."));
    await Promise.allSettled([...this.workers]);
    this.handles.clear();
    await this.lease?.release().catch(() => undefined);
    await this.database?.close();
    this.database = null;
    this.storeRef = null;
  }

  /** Remembers the caller's handle for a team (bound to this plugin). */
  bind(owner: string, teamId: string, runs: AgentRuns | null): AgentRuns {
    if (runs === null) throw new Error("Agent teams need a run handle; this caller has none.");
    const bound = runs.forPlugin(NAMESPACE);
    this.handles.set(key(owner, teamId), bound);
    return bound;
  }

  connected(owner: string, teamId: string): boolean {
    return this.handles.has(key(owner, teamId));
  }

  /** A connected team's handle, else the host's server-side handle for the owner, else null. */
  private handleFor(owner: string, teamId: string): AgentRuns | null {
    const bound = this.handles.get(key(owner, teamId));
    if (bound !== undefined) return bound;
    try {
      const runs = this.deps?.agentRunsFor(owner) ?? null;
      return runs?.forPlugin(NAMESPACE) ?? null;
    } catch {
      return null;
    }
  }

  /**
   * Advances every team's next job per thread, each in its own worker under a poll budget.
   * Cancelling `signal` cancels the workers, waits until each has drained, then rethrows.
   */
  async tick(signal: AbortSignal = new AbortController().signal): Promise<void> {
    const lease = this.lease;
    if (!this.available || lease === null) return;
    if (!(await lease.acquire())) return;
    const store = this.store;
    const controller = new AbortController();
    this.ticking = controller;
    const onAbort = (): void => controller.abort(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    // A long transfer must not let the lease lapse under us.
    const renew = setInterval(
      () => void lease.acquire().catch(() => undefined),
      (lease.seconds() * 1000) / 3,
    );
    renew.unref();
    try {
      const candidates: Array<{ owner: string; team: Team; runs: AgentRuns }> = [];
      for (const { owner, id } of await store.activeTeams()) {
        const runs = this.handleFor(owner, id);
        const team = runs === null ? null : await store.get(owner, id).catch(() => null);
        if (runs !== null && team !== null) candidates.push({ owner, team, runs });
      }
      let slots =
        teamsSettings.maxActiveAdmissions -
        candidates.reduce((n, c) => n + c.team.jobs.filter(holdsSlot).length, 0);
      for (const { owner, team, runs } of candidates) {
        const busy = new Set<string>();
        for (const job of team.jobs) {
          if (isTerminal(job) || busy.has(job.thread_id)) continue;
          busy.add(job.thread_id);
          if (job.status === "waiting_input" || this.inFlight.has(job.id)) continue;
          if (job.status === "queued" && job.input === null) {
            if (slots <= 0) continue;
            slots -= 1;
          }
          if (controller.signal.aborted) break;
          this.spawn(owner, team.id, job.id, runs, controller.signal);
        }
      }
      await Promise.allSettled([...this.workers]);
    } finally {
      clearInterval(renew);
      signal.removeEventListener("abort", onAbort);
      if (this.ticking === controller) this.ticking = null;
    }
    if (signal.aborted) throw signal.reason;
  }

  private spawn(
    owner: string,
    teamId: string,
    jobId: string,
    runs: AgentRuns,
    cancelled: AbortSignal,
  ): void {
    this.inFlight.add(jobId);
    const worker = this.work(owner, teamId, jobId, runs, cancelled).finally(() => {
      this.inFlight.delete(jobId);
      this.workers.delete(worker);
    });
    this.workers.add(worker);
  }

  /** One worker: advance the job, then apply the error policy to what went wrong. */
  private async work(
    owner: string,
    teamId: string,
    jobId: string,
    runs: AgentRuns,
    cancelled: AbortSignal,
  ): Promise<void> {
    const store = this.store;
    try {
      await withWorkerDeadline(teamsSettings.pollBudgetSeconds * 1000, cancelled, () =>
        advanceJob({ store, owner, teamId, jobId, runs }),
      );
    } catch (error) {
      if (cancelled.aborted) return;
      const fail = (message: string) =>
        store
          .change(owner, teamId, (team) => finishJob(team, jobId, "failed", null, message))
          .catch((e: unknown) => this.warn("could not record a job failure", e));
      if (error instanceof ArtifactCopyError) return void (await fail(error.message));
      if (error instanceof AgentRunError) {
        if (error.status === 403 || error.status === 503) {
          this.handles.delete(key(owner, teamId));
          return;
        }
        if (error.status === 409) return;
        return void (await fail(`Agent unavailable or request rejected: ${error.message}`));
      }
      // A timeout or a lost acknowledgement: the next tick retries with the same key.
      if (error instanceof TimeoutError || hasCode(error)) return;
      this.warn("a team job failed unexpectedly; the team is disconnected", error);
      this.handles.delete(key(owner, teamId));
    }
  }

  private warn(message: string, error: unknown): void {
    this.deps?.logger.warn(`agent-teams: ${message}`, {
      error: error instanceof Error ? error.message : String(error),
    });
  }

  /** The job as stored now (tests and tools). */
  async job(owner: string, teamId: string, jobId: string): Promise<Job> {
    return findJob(await this.store.get(owner, teamId), jobId);
  }
}

const key = (owner: string, teamId: string): string => `${owner}\u0000${teamId}`;

/** Active jobs that hold one of the new-admission slots (frozen input or admitted). */
const holdsSlot = (job: Job): boolean =>
  job.status === "running" ||
  job.status === "resuming" ||
  job.status === "cancelling" ||
  (job.status === "queued" && job.input !== null);

/** A system error (an OSError's analogue): retryable. */
const hasCode = (error: unknown): boolean =>
  error instanceof Error && "code" in error && typeof error.code === "string";
