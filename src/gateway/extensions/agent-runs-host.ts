import { AgentRunError } from "../../core/errors.js";
import type { AgentRunsCaller, AgentRunsProvider } from "../../extensions/agent-runs-provider.js";
import type { AgentRuns } from "../../extensions/api/agent-runs.js";
import type { ThreadArtifacts } from "../../extensions/artifacts/index.js";
import type { RunStore } from "../../ports/run-store.js";
import type { UserStore } from "../../ports/user-store.js";
import type { RunManager } from "../../runtime/run-manager.js";
import type { RunService } from "../../runtime/run-service.js";
import type { GatewayServices } from "../gateway-services.js";
import { AgentRunsHandle } from "./agent-runs-handle.js";

/** What plugin run handles are built over: the gateway's services and the runtime's admission. */
export interface AgentRunsHostDeps {
  services: Pick<GatewayServices, "threads" | "state" | "runs">;
  stores: {
    runs: Pick<RunStore, "get" | "getByIdempotencyKey">;
    users: Pick<UserStore, "getUserById">;
  };
  manager: Pick<RunManager, "getLocal">;
  /** Admission without the HTTP key prefix: plugin keys live in their own namespace. */
  runService: Pick<RunService, "submit">;
  artifacts: ThreadArtifacts;
  /** With `local` auth every call checks the user still exists. */
  authMode: string;
  maxRecursionLimit: number;
}

/** Callers that get a handle: signed-in users, runs (their own user) and plugin services. */
const HANDLED_CALLERS: ReadonlySet<AgentRunsCaller> = new Set([
  "session",
  "disabled",
  "run",
  "service",
]);

/** Hands plugins `AgentRuns` handles acting for one user over the real run runtime. */
export class AgentRunsHost implements AgentRunsProvider {
  constructor(private readonly deps: AgentRunsHostDeps) {}

  bind(principal: { userId: string; via: AgentRunsCaller }): AgentRuns | null {
    if (!HANDLED_CALLERS.has(principal.via)) return null;
    return new AgentRunsHandle(this.deps, principal.userId, null);
  }
}

/** Every failure a handle surfaces is an AgentRunError; anything unexpected is a bare 500. */
export async function asAgentRunError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const mapped = AgentRunError.from(error);
    if (mapped) throw mapped;
    throw new AgentRunError(500, "The agent run host failed; retry shortly", { cause: error });
  }
}
