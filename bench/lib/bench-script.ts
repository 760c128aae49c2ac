/** The contract between `bench/run.ts` and each benchmark script. */

export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  /** Columns (by index) written left-aligned; the rest are figures, right-aligned. */
  textColumns?: number;
}

/** One benchmark target and what this run measured against it. */
export interface TargetCheck {
  target: string;
  measured: string;
  /** null: not measured in this run (e.g. PostgreSQL unreachable); the reason is in `measured`. */
  met: boolean | null;
}

export interface ScriptReport {
  tables: Table[];
  targets: TargetCheck[];
  /** How the figures were taken (settings, what is compared), written under the tables. */
  notes: string[];
}

export interface BenchContext {
  /** Smoke mode: tiny counts, one repetition; figures mean nothing. */
  quick: boolean;
  /** Repetitions whose median is reported (1 in quick mode). */
  reps: number;
  /** Progress for the operator, on stderr. */
  log(message: string): void;
}

export interface BenchScript {
  name: string;
  title: string;
  run(ctx: BenchContext): Promise<ScriptReport>;
}
