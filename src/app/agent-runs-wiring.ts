import type { FawnConfig } from "../core/config/schema.js";
import { DEFAULT_USER_ID, type FawnPaths } from "../core/paths.js";
import { ThreadArtifacts } from "../extensions/artifacts/index.js";
import { createGatewayServices } from "../gateway/app.js";
import { AgentRunsHost } from "../gateway/extensions/agent-runs-host.js";
import type { GatewayDeps } from "../gateway/gateway-deps.js";
import { withThreadOperation } from "../gateway/threads/thread-operation.js";
import { checkUploadName } from "../gateway/uploads/upload-name.js";
import type { FawnStores } from "../ports/fawn-stores.js";
import type { RunManager } from "../runtime/run-manager.js";
import type { SandboxProvider } from "../sandbox/index.js";

/** Artifact hand-off over the thread folders: uploads' name rule and limit, writes as operations. */
export function threadArtifactsOf(parts: {
  config: FawnConfig;
  paths: FawnPaths;
  sandbox: SandboxProvider;
  manager: RunManager;
  stores: FawnStores;
}): ThreadArtifacts {
  const { manager, stores } = parts;
  return new ThreadArtifacts({
    paths: parts.paths,
    provider: parts.sandbox,
    checkName: checkUploadName,
    threadOperation: (scope, work) =>
      withThreadOperation(
        { manager, runs: stores.runs },
        scope.threadId,
        scope.userId,
        "artifact_write",
        work,
      ),
    maxFileBytes: parts.config.uploads.max_file_size,
    defaultUserId: DEFAULT_USER_ID,
  });
}

/** The plugin run-handle host over the gateway's services. */
export function agentRunsHostOf(deps: GatewayDeps, artifacts: ThreadArtifacts): AgentRunsHost {
  const services = createGatewayServices(deps);
  return new AgentRunsHost({
    services,
    stores: deps.stores,
    manager: deps.manager,
    runService: deps.runService,
    artifacts,
    authMode: deps.config.auth.mode,
    maxRecursionLimit: deps.config.max_recursion_limit ?? 1000,
  });
}
