/**
 * `npm run bench -- chaos`: three `fawn serve` processes under SIGKILL, SIGSTOP/SIGCONT and a
 * Redis restart while SDK clients stream runs and rejoin through other processes; the checker's
 * verdict is the target (zero violations). Full mode: 120 s of faults with 4 clients; quick
 * mode: 10 s, 2 clients. `FAWN_CHAOS_SEED` replays a schedule.
 */
import type { BenchContext, BenchScript, ScriptReport, Table } from "../lib/bench-script.js";
import { integer } from "../lib/format.js";
import { type ChaosResult, runChaos } from "./chaos-run.js";

function resultsTable(result: ChaosResult): Table {
  const streams = result.streams.filter((s) => s.outcome !== "not_created");
  const count = (outcome: string) => streams.filter((s) => s.outcome === outcome).length;
  const statuses = Object.entries(result.byStatus)
    .map(([status, n]) => `${status} ${n}`)
    .join(", ");
  return {
    title: "Chaos results",
    columns: [
      "kills",
      "stops",
      "redis restarts",
      "runs",
      "run statuses",
      "streams complete / gap",
      "rejoins",
      "creates retried",
      "violations",
    ],
    textColumns: 0,
    rows: [
      [
        integer(result.kills),
        integer(result.pauses),
        integer(result.redisRestarts),
        integer(result.runs),
        statuses || "-",
        `${count("complete")} / ${count("gap")}`,
        integer(streams.reduce((sum, s) => sum + s.rejoins, 0)),
        integer(result.streams.reduce((sum, s) => sum + s.failedCreates.length, 0)),
        integer(result.violations.length),
      ],
    ],
  };
}

function violationsTable(result: ChaosResult): Table {
  return {
    title: "Violations (first 20)",
    columns: ["run", "problem"],
    textColumns: 2,
    rows: result.violations.slice(0, 20).map((v) => [v.runId, v.problem]),
  };
}

async function run(ctx: BenchContext): Promise<ScriptReport> {
  const seed = Number(process.env.FAWN_CHAOS_SEED ?? Date.now() % 1_000_000);
  const seconds = ctx.quick ? 10 : 120;
  const clients = ctx.quick ? 2 : 4;
  const result = await runChaos({
    processes: 3,
    seconds,
    clients,
    faults: "random",
    seed,
    log: ctx.log,
  });
  ctx.log(`chaos: ${result.runs} runs, ${result.violations.length} violation(s)`);
  const tables = [resultsTable(result)];
  if (result.violations.length > 0) tables.push(violationsTable(result));
  return {
    tables,
    targets: [
      {
        target: "chaos: every run one agreeing terminal, nothing after it, streams whole or gapped",
        measured: `${result.violations.length} violation(s) over ${result.runs} runs`,
        met: result.violations.length === 0,
      },
    ],
    notes: [
      `Three \`fawn serve\` processes on loopback, one fresh PostgreSQL database, a private redis-server; lease 5 s, grace 0 s, recovery scan 1 s; scripted runs of about 3 s (30 words, 100 ms apart).`,
      `${seconds} s of faults (seed ${seed}; replay with FAWN_CHAOS_SEED): SIGKILL (restarted at once), SIGSTOP for 1–10 s then SIGCONT, one Redis restart with every key lost; never the last serving process.`,
      `${clients} clients (\`@langchain/langgraph-sdk\`) create and stream runs; a failed or 4 s quiet stream rejoins through another process with Last-Event-ID. A create that fails before the server names the run is retried on a new thread ("creates retried"); the run it may have left behind is checked like any other.`,
      "The checker reads runs and events from PostgreSQL: exactly one `run.terminal` per run, agreeing with its status, last among its events; every stream complete (and its run ended) or ended by a `gap` frame; no event delivered twice.",
    ],
  };
}

export const chaosBench: BenchScript = {
  name: "chaos",
  title: "Chaos: three processes under kills, pauses and a Redis restart",
  run,
};
