/**
 * A quick look at journal throughput without the whole bench: `tsx bench/events/journal-probe.ts
 * [sqlite|postgres] [runs] [eventsPerRun] [reps]` prints journal ÷ raw per repetition and the median.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshPostgresDatabase } from "../lib/postgres.js";
import { median } from "../lib/stats.js";
import { threadCpu, threadCpuSince } from "../lib/thread-cpu.js";
import { journalWrites } from "./journal-writes.js";
import { rawPostgresInserts, rawSqliteInserts } from "./raw-inserts.js";

const [backend = "sqlite", runsText = "1", eventsText = "5000", repsText = "3"] =
  process.argv.slice(2);
const runs = Number(runsText);
const eventsPerRun = Number(eventsText);
const dir = await mkdtemp(join(tmpdir(), "fawn-journal-probe-"));
const ratios: number[] = [];
try {
  for (let rep = 0; rep < Number(repsText); rep++) {
    let journalUrl: string;
    let rawTarget: string;
    const drops: Array<() => Promise<void>> = [];
    if (backend === "postgres") {
      const a = await freshPostgresDatabase();
      const b = await freshPostgresDatabase();
      drops.push(a.drop, b.drop);
      journalUrl = a.url;
      rawTarget = b.url;
    } else {
      journalUrl = `sqlite:${join(dir, `j-${rep}.db`)}`;
      rawTarget = join(dir, `r-${rep}.db`);
    }
    const cpuBefore = await threadCpu();
    const journal = await journalWrites(journalUrl, runs, eventsPerRun);
    const busy = threadCpuSince(cpuBefore, await threadCpu());
    const perEvent = (ms: number) => ((ms * 1000) / journal.events).toFixed(1);
    console.log(
      `  cpu µs/event: ${busy
        .slice(0, 4)
        .map((t) => `${t.main ? "main" : t.name} ${perEvent(t.ms)}`)
        .join(", ")}`,
    );
    const rawSeconds =
      backend === "postgres"
        ? await rawPostgresInserts(rawTarget, journal.batches)
        : await rawSqliteInserts(rawTarget, journal.batches);
    const journalRate = journal.events / journal.seconds;
    const rawRate = journal.events / rawSeconds;
    ratios.push(journalRate / rawRate);
    console.log(
      `rep ${rep}: journal ${Math.round(journalRate)}/s raw ${Math.round(rawRate)}/s ratio ${(journalRate / rawRate).toFixed(3)} batches ${journal.batches.length} mean ${(journal.events / journal.batches.length).toFixed(1)}`,
    );
    for (const drop of drops) await drop();
  }
  console.log(`median ratio ${median(ratios).toFixed(3)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
