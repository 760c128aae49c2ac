/** The SSE half of bench/events: idle subscribers on one run, per level, on one Fawn server. */
import { join } from "node:path";
import type { BenchContext, Table, TargetCheck } from "../lib/bench-script.js";
import { startChildServer } from "../lib/child-server.js";
import { fixed, integer, kib, ms } from "../lib/format.js";
import { medianOf } from "../lib/stats.js";
import { benchClient } from "../runtime/sdk-runs.js";
import { type FanOutFigures, sseFanOut } from "./sse-fan-out.js";

export async function fanOutSection(ctx: BenchContext, dir: string) {
  const levels = ctx.quick ? [20] : [1_000, 2_000];
  const server = await startChildServer("bench/servers/fawn-server.ts", {
    args: [`sqlite:${join(dir, "fan-out.db")}`, dir],
  });
  const client = benchClient(`${server.url}/api`);
  const table: Table = {
    title: "SSE fan-out: idle subscribers on one run (server process)",
    columns: [
      "subscribers",
      "held",
      "connect all (s)",
      "heap KiB/stream",
      "RSS KiB/stream",
      "cancel → all ended (ms)",
    ],
    rows: [],
  };
  const held: number[] = [];
  try {
    for (const n of levels) {
      const reps: FanOutFigures[] = [];
      for (let rep = 0; rep < ctx.reps; rep++) reps.push(await sseFanOut(server, client, n));
      const m = medianOf(reps, [
        "held",
        "connectSeconds",
        "heapPerStreamBytes",
        "rssPerStreamBytes",
        "endAllMs",
      ] as const);
      held.push(Math.min(...reps.map((r) => r.held)));
      ctx.log(`events: fan-out ${n}: held ${m.held}, heap ${kib(m.heapPerStreamBytes)} KiB/stream`);
      table.rows.push([
        integer(n),
        integer(m.held),
        fixed(m.connectSeconds, 2),
        kib(m.heapPerStreamBytes),
        kib(m.rssPerStreamBytes),
        ms(m.endAllMs),
      ]);
    }
  } finally {
    await server.stop();
  }
  const most = Math.max(...held);
  const target: TargetCheck = {
    target: "events: ≥ 1,000 concurrent SSE streams held",
    measured: `${integer(most)} held (fewest over repetitions at the largest level)`,
    met: most >= 1_000,
  };
  return { table, target };
}
