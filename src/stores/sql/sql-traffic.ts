/**
 * What a database connection sent, counted when `countTraffic` is on (tests and profiling use it
 * to pin how many statements, transactions and thread hops a piece of work costs — figures that,
 * unlike time, do not move with the machine's load).
 */
export interface SqlTraffic {
  /** SQL statements executed, not counting BEGIN / COMMIT / ROLLBACK. */
  statements: number;
  /** Explicit transactions begun (a batch is one). */
  transactions: number;
  /** Messages posted to the SQLite worker thread. */
  messages: number;
  /** Messages whose reply a caller waited for: the hops that add latency. */
  roundTrips: number;
}

export function emptyTraffic(): SqlTraffic {
  return { statements: 0, transactions: 0, messages: 0, roundTrips: 0 };
}

/** `after` minus `before`, field by field. */
export function trafficSince(before: SqlTraffic, after: SqlTraffic): SqlTraffic {
  return {
    statements: after.statements - before.statements,
    transactions: after.transactions - before.transactions,
    messages: after.messages - before.messages,
    roundTrips: after.roundTrips - before.roundTrips,
  };
}
