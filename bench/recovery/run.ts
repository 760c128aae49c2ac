/**
 * Recovery latency: SIGKILL a worker process mid-run and time until a peer (a createFawn runtime
 * with default settings: lease 30 s, grace 10 s, recovery scan every 1 s) has published the
 * recovered `run.terminal`. Prints the figure and the bound it should respect; asserts nothing.
 *
 * Usage: npx tsx bench/recovery/run.ts [--quick]   (--quick: lease 5 s, grace 0 s)
 */
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createFawn } from "../../src/embedded/create-fawn.js";
import { openSqlStores } from "../../src/stores/sql/stores.js";

const quick = process.argv.includes("--quick");
const leaseSeconds = quick ? 5 : 30;
const graceSeconds = quick ? 0 : 10;
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const buildDir = join(root, "node_modules", ".cache", "fawn-crash");
const bundle = join(buildDir, "crash-worker.mjs");

await mkdir(buildDir, { recursive: true });
await build({
  entryPoints: [join(root, "test/crash/crash-worker.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  outfile: bundle,
  logLevel: "warning",
});
await copyFile(join(root, "src/stores/sql/sqlite-worker.js"), join(buildDir, "sqlite-worker.js"));

const dir = await mkdtemp(join(tmpdir(), "fawn-recovery-bench-"));
const url = `sqlite:${join(dir, "bench.db")}`;
const stores = await openSqlStores(url);
const config = parseConfig(
  {
    runtime: { lease_seconds: leaseSeconds, grace_seconds: graceSeconds, heartbeat_enabled: true },
  },
  { env: {}, cwd: dir },
).config;

const child = spawn(process.execPath, [bundle, url, "0", "host"], {
  cwd: root,
  env: { ...process.env, FAWN_CRASH_LEASE_SECONDS: String(leaseSeconds) },
  stdio: ["ignore", "pipe", "inherit"],
});
let runId = "";
let threadId = "";
await new Promise<void>((done) => {
  createInterface({ input: child.stdout }).on("line", (line) => {
    const [kind, a, b] = line.split(" ");
    if (kind === "run" && a && b) [runId, threadId] = [a, b];
    if (kind === "crash-point") done();
  });
});
child.kill("SIGKILL");
const killedAt = performance.now();
// The peer starts after the kill, like a surviving process would already be running.
const fawn = await createFawn({
  config,
  stores,
  agentFactory: () => ({ stream: async function* () {} }),
});
for (;;) {
  const terminal = await stores.events.listEvents(threadId, runId, {
    eventTypes: ["run.terminal"],
  });
  if (terminal.length > 0) break;
  await new Promise((r) => setTimeout(r, 50));
}
const seconds = (performance.now() - killedAt) / 1000;
process.stdout.write(
  `recovery latency: ${seconds.toFixed(2)} s (lease ${leaseSeconds} s, grace ${graceSeconds} s, scan 1 s; ` +
    `bound lease + grace + scan = ${leaseSeconds + graceSeconds + 1} s)\n`,
);
await fawn.close();
await rm(dir, { recursive: true, force: true });
