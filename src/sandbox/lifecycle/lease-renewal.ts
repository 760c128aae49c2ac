import type { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { RenewOutcome, SandboxOwnershipStore } from "../ownership/ownership-store.js";
import type { SandboxRegistry } from "./sandbox-registry.js";

/**
 * One renewal pass over every lease this process holds (active and warm), run by a timer off
 * the request path. LAPSED → claim it again; LOST → a peer owns it: forget it here, never stop
 * it — unless it was re-acquired meanwhile (epoch changed, or its lock is held right now).
 * A store error means "unknown": keep the sandbox and try again next pass.
 */
export async function renewTrackedLeases(state: {
  registry: SandboxRegistry;
  ownership: SandboxOwnershipStore;
  idLocks: KeyedMutex<string>;
  log: Logger;
}): Promise<void> {
  const { registry, ownership, idLocks, log } = state;
  for (const sandboxId of registry.trackedIds()) {
    const epoch = registry.epochOf(sandboxId);
    let outcome: RenewOutcome;
    try {
      outcome = await ownership.renew(sandboxId);
      if (outcome === "lapsed") outcome = (await ownership.claim(sandboxId)) ? "renewed" : "lost";
    } catch (error) {
      log.warn({ sandboxId, error: describeError(error) }, "lease renewal failed; will retry");
      continue;
    }
    const reacquired = registry.epochOf(sandboxId) !== epoch || idLocks.isLocked(sandboxId);
    if (outcome === "lost" && !reacquired) {
      log.info({ sandboxId }, "a peer owns this sandbox now; forgetting it here");
      registry.forget(sandboxId);
    }
  }
}
