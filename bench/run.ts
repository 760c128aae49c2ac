/**
 * `npm run bench [-- <script>…] [--quick] [--out <file>] [--update]`: runs the benchmark scripts
 * (all by default, in a fixed order), prints each one's tables, and writes a Markdown report — to
 * `bench/results/latest.md` when every script ran in full mode, else only where `--out` says;
 * `--update` replaces just the sections of the scripts that ran in `bench/results/latest.md`.
 * Figures are printed, never asserted.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";

// Before any Fawn module is loaded: the root logger reads this once, at import time.
process.env.FAWN_LOG_LEVEL ??= "silent";
process.env.LOG_LEVEL ??= "error";

const { BENCH_SCRIPTS } = await import("./scripts.js");
const { machineInfo } = await import("./lib/machine.js");
const { renderReport, replaceSections } = await import("./lib/report.js");
const { textTable } = await import("./lib/table.js");
const { repoRoot } = await import("./lib/paths.js");
const { removeBundles } = await import("./lib/bundle.js");
type ScriptOutcome = import("./lib/report.js").ScriptOutcome;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: "boolean", default: false },
    out: { type: "string" },
    reps: { type: "string" },
    // Replace only the sections of the scripts that ran in bench/results/latest.md.
    update: { type: "boolean", default: false },
  },
});
const quick = values.quick ?? false;
const reps = values.reps ? Number(values.reps) : quick ? 1 : 3;
if (!Number.isInteger(reps) || reps < 1) throw new Error(`--reps takes a positive integer`);
const unknown = positionals.filter((name) => !BENCH_SCRIPTS.some((s) => s.name === name));
if (unknown.length > 0) {
  throw new Error(
    `unknown script(s) ${unknown.join(", ")}; known: ${BENCH_SCRIPTS.map((s) => s.name).join(", ")}`,
  );
}
const selected =
  positionals.length === 0
    ? BENCH_SCRIPTS
    : BENCH_SCRIPTS.filter((s) => positionals.includes(s.name));

const startedAt = new Date();
const machine = await machineInfo();
const outcomes: ScriptOutcome[] = [];
const ctx = {
  quick,
  reps,
  log: (message: string) => process.stderr.write(`  ${message}\n`),
};
for (const script of selected) {
  process.stderr.write(`bench ${script.name}${quick ? " (quick)" : ""}…\n`);
  const started = performance.now();
  let outcome: ScriptOutcome;
  try {
    const report = await script.run(ctx);
    outcome = { name: script.name, title: script.title, report, error: null, seconds: 0 };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`bench ${script.name} failed: ${message}\n`);
    outcome = {
      name: script.name,
      title: script.title,
      report: null,
      error: String(error),
      seconds: 0,
    };
    process.exitCode = 1;
  }
  outcome.seconds = (performance.now() - started) / 1000;
  outcomes.push(outcome);
  process.stdout.write(`\n## ${script.title} (${outcome.seconds.toFixed(1)} s)\n\n`);
  for (const table of outcome.report?.tables ?? []) process.stdout.write(`${textTable(table)}\n\n`);
  for (const target of outcome.report?.targets ?? []) {
    const verdict = target.met === null ? "not measured" : target.met ? "met" : "MISSED";
    process.stdout.write(`  target ${target.target}: ${target.measured} → ${verdict}\n`);
  }
}

await removeBundles();
const totalSeconds = (Date.now() - startedAt.getTime()) / 1000;
process.stdout.write(`\nwhole run: ${(totalSeconds / 60).toFixed(1)} min\n`);
const fullRun = !quick && selected.length === BENCH_SCRIPTS.length;
if (values.update && !fullRun && !values.out) {
  if (quick) throw new Error("--update takes measurements, not --quick figures");
  const latest = join(repoRoot, "bench/results/latest.md");
  const existing = await readFile(latest, "utf8").catch(
    () => "# Fawn benchmarks: latest results\n",
  );
  await writeFile(latest, replaceSections(existing, outcomes, startedAt));
  process.stdout.write(`\nsections updated in ${latest}\n`);
}
const out = values.out
  ? resolve(values.out)
  : fullRun
    ? join(repoRoot, "bench/results/latest.md")
    : null;
if (out) {
  const markdown = renderReport({
    machine,
    outcomes,
    quick,
    reps,
    startedAt,
    totalSeconds,
    fullRun,
  });
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, markdown);
  process.stdout.write(`\nreport written to ${out}\n`);
}
// Child servers are stopped by each script; leftover handles (SDK keep-alive sockets, peer
// queue timers in imported modules) must not keep the bench alive.
process.exit();
