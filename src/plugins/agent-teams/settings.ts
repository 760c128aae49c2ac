/**
 * Tunables of the teams service. A mutable object rather than constants so tests (and operators
 * embedding the plugin) can scale them: ESM exports cannot be reassigned from outside.
 */
export const teamsSettings = {
  /** Bound on one file transfer (import or capture), which may exceed the poll budget. */
  artifactTransferSeconds: 120,
  /** Budget of one job advancement in a tick (the worker's poll deadline). */
  pollBudgetSeconds: 10,
  /** New admissions (queued jobs without frozen input) that may be active at once. */
  maxActiveAdmissions: 8,
  /** How long the service lease lives without renewal before a peer may take it over. */
  leaseSeconds: 30,
  /** Interval of the background tick loop the host drives. */
  tickIntervalMs: 1000,
};
