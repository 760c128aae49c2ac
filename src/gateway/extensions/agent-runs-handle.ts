import { AgentRunError } from "../../core/errors.js";
import type {
  AgentRun,
  AgentRuns,
  AgentThreadState,
  ArtifactReceipt,
  CreateThreadArgs,
  ImportArtifactArgs,
  ReadArtifactArgs,
  ResumeRunArgs,
  RunRef,
  StartRunArgs,
  ValidateArtifactSourceArgs,
  WaitRunArgs,
} from "../../extensions/api/agent-runs.js";
import type { RunInvocation } from "../../ports/run-types.js";
import { isTerminalStatus } from "../../ports/run-types.js";
import { LEAD_AGENT_ASSISTANT_ID } from "../assistants/assistant-catalog.js";
import { buildInvocation } from "../runs/run-invocation.js";
import { runCreateBody } from "../runs/run-schemas.js";
import { threadCreateBody } from "../threads/thread-schemas.js";
import {
  checkContext,
  checkInput,
  checkKey,
  checkNamespace,
  checkWaitSeconds,
  copyJsonObject,
  storedKey,
} from "./agent-run-args.js";
import { toAgentRun, toAgentThreadState } from "./agent-run-views.js";
import { type AgentRunsHostDeps, asAgentRunError } from "./agent-runs-host.js";
import { validateSource } from "./artifact-source.js";

/** What an admission carries besides its graph input or command. */
interface Admission {
  threadId: string;
  body: Record<string, unknown>;
  key: string | undefined;
  imports?: RunInvocation["artifact_imports"];
}

/**
 * One user's run handle, unbound or bound to a plugin namespace. Every call re-checks the user
 * and the thread (a foreign thread is 404), and fails only with `AgentRunError`.
 */
export class AgentRunsHandle implements AgentRuns {
  constructor(
    private readonly deps: AgentRunsHostDeps,
    private readonly userId: string,
    /** Null: unbound (keys stored under the empty namespace). */
    private readonly namespace: string | null,
  ) {}

  forPlugin(namespace: string): AgentRuns {
    const checked = checkNamespace(namespace);
    if (this.namespace === null) return new AgentRunsHandle(this.deps, this.userId, checked);
    if (this.namespace === checked) return this;
    throw new AgentRunError(422, "Agent run handle is already bound to a plugin");
  }

  async createThread(args: CreateThreadArgs = {}): Promise<string> {
    const metadata =
      args.metadata === undefined ? undefined : copyJsonObject(args.metadata, "metadata");
    return this.call(async () => {
      const body = threadCreateBody.safeParse({
        thread_id: args.threadId ?? null,
        assistant_id: args.assistantId ?? LEAD_AGENT_ASSISTANT_ID,
        metadata: metadata ?? {},
        if_exists: "do_nothing",
      });
      if (!body.success) throw new AgentRunError(422, "Invalid thread id, assistant or metadata");
      const thread = await this.deps.services.threads.create(this.userId, body.data);
      return thread.thread_id;
    });
  }

  async start(args: StartRunArgs): Promise<AgentRun> {
    const input = checkInput(args.input);
    const context = checkContext(args.context);
    const key = args.idempotencyKey === undefined ? undefined : checkKey(args.idempotencyKey);
    const imports = args.artifactImports?.map((r) => this.deps.artifacts.checkReceipt({ ...r }));
    return this.call(() =>
      this.admit({
        threadId: args.threadId,
        body: { input, ...(context ? { context } : {}) },
        key,
        ...(imports && imports.length > 0 ? { imports } : {}),
      }),
    );
  }

  async resume(args: ResumeRunArgs): Promise<AgentRun> {
    if (args.resume === null || args.resume === undefined) {
      throw new AgentRunError(422, "An explicit interrupt response is required");
    }
    const resume: unknown = copyJsonObject({ resume: args.resume }, "resume").resume;
    const key = args.idempotencyKey === undefined ? undefined : checkKey(args.idempotencyKey);
    return this.call(() =>
      this.admit({ threadId: args.threadId, body: { command: { resume } }, key }),
    );
  }

  async get(args: RunRef): Promise<AgentRun> {
    return this.call(async () => {
      await this.ownedThread(args.threadId);
      return toAgentRun(
        await this.deps.services.runs.getOwned(args.threadId, args.runId, this.userId),
      );
    });
  }

  async getState(args: { threadId: string }): Promise<AgentThreadState> {
    return this.call(async () => {
      await this.ownedThread(args.threadId);
      return toAgentThreadState(await this.deps.services.state.state(args.threadId));
    });
  }

  async wait(args: WaitRunArgs): Promise<AgentRun> {
    const seconds = checkWaitSeconds(args.timeoutSeconds);
    return this.call(async () => {
      await this.ownedThread(args.threadId);
      const { runs } = this.deps.services;
      await runs.getOwned(args.threadId, args.runId, this.userId);
      const expiry = new AbortController();
      const timer = setTimeout(() => expiry.abort(), seconds * 1000);
      try {
        const ended = await runs.waitForEnd(args.runId, expiry.signal).catch((error: unknown) => {
          if (expiry.signal.aborted) return null;
          throw error;
        });
        if (ended === null || !isTerminalStatus(ended.status)) {
          throw new AgentRunError(504, `Run ${args.runId} did not finish within ${seconds} s`);
        }
        return toAgentRun(ended);
      } finally {
        clearTimeout(timer);
        expiry.abort();
      }
    });
  }

  async cancel(args: RunRef): Promise<void> {
    return this.call(async () => {
      await this.ownedThread(args.threadId);
      const row = await this.deps.services.runs.getOwned(args.threadId, args.runId, this.userId);
      // Non-blocking and idempotent: a run that already ended stays as it ended.
      if (isTerminalStatus(row.status) && !this.deps.manager.getLocal(args.runId)?.taskIsLive())
        return;
      await this.deps.services.runs.cancel(args.threadId, args.runId, this.userId, {
        action: "interrupt",
        wait: false,
      });
    });
  }

  async importArtifact(args: ImportArtifactArgs): Promise<ArtifactReceipt> {
    const content = Uint8Array.from(args.content);
    return this.call(async () => {
      await this.ownedThread(args.threadId);
      return this.deps.artifacts.importArtifact(
        this.scope(args.threadId),
        args.filename,
        content,
        args.signal,
      );
    });
  }

  async readArtifact(args: ReadArtifactArgs): Promise<Uint8Array> {
    return this.call(async () => {
      await this.ownedThread(args.threadId);
      return this.deps.artifacts.readArtifact(this.scope(args.threadId), args.path, args.signal);
    });
  }

  async validateArtifactSource(args: ValidateArtifactSourceArgs): Promise<AgentRun> {
    const key = checkKey(args.idempotencyKey);
    return this.call(async () => {
      await this.ownedThread(args.threadId);
      const namespace = this.namespace ?? "";
      return validateSource(this.deps, {
        threadId: args.threadId,
        userId: this.userId,
        runId: args.runId,
        key: storedKey(namespace, key),
        namespace,
      });
    });
  }

  /** Admission through `RunService.submit` with the plugin's key and the host-stamped origin. */
  private async admit(admission: Admission): Promise<AgentRun> {
    const thread = await this.ownedThread(admission.threadId);
    const { threadId } = admission;
    const namespace = this.namespace ?? "";
    const key = admission.key === undefined ? null : storedKey(namespace, admission.key);
    if (key !== null) {
      // Reuse first: a retry of a known key answers its run before any busy check or verification.
      const row = await this.deps.stores.runs.getByIdempotencyKey(key);
      if (row) {
        if (row.thread_id !== threadId || row.user_id !== this.userId) {
          throw new AgentRunError(409, "Idempotency key was already used for another thread");
        }
        return toAgentRun(row);
      }
    }
    const parsed = runCreateBody.safeParse(admission.body);
    if (!parsed.success) throw new AgentRunError(422, "Invalid agent run input");
    const invocation: RunInvocation = {
      ...buildInvocation(parsed.data, {
        threadId,
        userId: this.userId,
        maxRecursionLimit: this.deps.maxRecursionLimit,
      }),
      origin: { kind: "extension", namespace },
      ...(admission.imports ? { artifact_imports: admission.imports } : {}),
    };
    const record = await this.deps.runService.submit({
      threadId,
      invocation,
      userId: this.userId,
      assistantId: thread.assistant_id ?? LEAD_AGENT_ASSISTANT_ID,
      onDisconnect: "continue",
      metadata: {},
      multitaskStrategy: "reject",
      idempotencyKey: key,
    });
    return toAgentRun(await this.deps.services.runs.currentRow(record));
  }

  /** The caller's thread (404 for a foreign or missing one), after checking the user still exists. */
  private async ownedThread(threadId: string) {
    if (
      this.deps.authMode === "local" &&
      !(await this.deps.stores.users.getUserById(this.userId))
    ) {
      throw new AgentRunError(403, "Agent run handle revoked: its user no longer exists");
    }
    if (typeof threadId !== "string" || threadId.length === 0) {
      throw new AgentRunError(404, "Thread not found");
    }
    return this.deps.services.threads.getOwned(threadId, this.userId).catch((error: unknown) => {
      if (error instanceof Error && "status" in error && error.status === 404) {
        throw new AgentRunError(404, "Thread not found");
      }
      throw error;
    });
  }

  private scope(threadId: string) {
    return { threadId, userId: this.userId };
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return asAgentRunError(work);
  }
}
