/*
 * Runs LangGraph.js's own server test suite (`libs/langgraph-api/tests/api.test.mts`) against
 * `fawn serve`, with the upstream test graphs loaded from their own `langgraph.json`.
 *
 *   npx tsx bench/peer-suite/run.ts <langgraphjs checkout> [--port 2024] [--out report.md]
 *
 * The suite's files are copied unchanged into `bench/peer-suite/.work/` (so their imports
 * resolve to Fawn's own packages). Fawn serves the LangGraph API at its root as the suite expects,
 * so nothing is changed at all on the suite's own port; with `--port`, only the server address
 * is rewritten. The suite truncates the server between tests through
 * `POST /internal/truncate`, which the server enables for this run alone
 * (`server.allow_truncate`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { access, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const REPO = resolve(HERE, "../..");
const WORK = join(HERE, ".work");
const SUITE_PORT = 2024;

interface VitestAssertion {
  fullName: string;
  status: "passed" | "failed" | "skipped" | "pending" | "todo" | "disabled";
  failureMessages: string[];
}

interface VitestReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { assertionResults: VitestAssertion[] }[];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { port: { type: "string", default: String(SUITE_PORT) }, out: { type: "string" } },
  });
  const checkout = positionals[0];
  if (!checkout)
    throw new Error("usage: run.ts <path to a langgraphjs checkout> [--port N] [--out F]");
  const apiDir = resolve(checkout, "libs/langgraph-api");
  await access(join(apiDir, "tests/api.test.mts")).catch(() => {
    throw new Error(
      `${apiDir}/tests/api.test.mts not found: pass the root of a langgraphjs checkout.`,
    );
  });
  const port = Number(values.port);

  await installExtras();
  await rm(WORK, { recursive: true, force: true });
  await mkdir(WORK, { recursive: true });
  await cp(join(apiDir, "tests"), join(WORK, "tests"), { recursive: true });
  await cp(join(apiDir, "vitest.config.js"), join(WORK, "vitest.config.js"));
  if (port !== SUITE_PORT) await pointSuiteAt(port);

  const home = await mkdtemp(join(tmpdir(), "fawn-peer-suite-"));
  await writeFile(
    join(home, "config.yaml"),
    [
      "server:",
      `  port: ${port}`,
      "  host: 127.0.0.1",
      "  allow_truncate: true",
      "database:",
      `  url: sqlite://${join(home, "fawn.db")}`,
      "",
    ].join("\n"),
  );
  await assertPortFree(port);
  const server = startServer(home);
  try {
    await waitForHealth(port, server);
    const reportFile = join(home, "vitest.json");
    await runSuite(reportFile);
    const report = JSON.parse(await readFile(reportFile, "utf8")) as VitestReport;
    const summary = summarize(report);
    process.stdout.write(summary);
    if (values.out) await writeFile(values.out, summary);
  } finally {
    server.kill("SIGTERM");
    await once(server, "exit").catch(() => undefined);
    await rm(home, { recursive: true, force: true });
  }
}

async function installExtras(): Promise<void> {
  const present = await access(join(HERE, "node_modules/wait-port")).then(
    () => true,
    () => false,
  );
  if (present) return;
  process.stdout.write("installing the suite's extra packages (postgres, wait-port)…\n");
  await exec("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock"], HERE, process.env);
}

/** The one change the runner may make: the server address the suite's client uses. */
async function pointSuiteAt(port: number): Promise<void> {
  const file = join(WORK, "tests/api.test.mts");
  const text = await readFile(file, "utf8");
  const address = `localhost:${SUITE_PORT}`;
  if (!text.includes(address)) throw new Error(`${file} no longer names ${address}`);
  await writeFile(file, text.replaceAll(address, `localhost:${port}`));
}

function startServer(home: string): ChildProcess {
  const child = spawn(
    join(REPO, "node_modules/.bin/tsx"),
    [join(REPO, "src/cli/main.ts"), "serve"],
    {
      // `langgraph.json` is read from the working directory, as `langgraph dev` does.
      cwd: join(WORK, "tests/graphs"),
      env: { ...process.env, FAWN_HOME: home, FAWN_CONFIG: join(home, "config.yaml"), CI: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const log = (chunk: Buffer) => process.stderr.write(`[fawn] ${chunk}`);
  child.stdout?.on("data", log);
  child.stderr?.on("data", log);
  return child;
}

/** A server already on the port would answer the suite instead of the one started here. */
async function assertPortFree(port: number): Promise<void> {
  const taken = await fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is taken; pass --port with a free one`);
}

async function waitForHealth(port: number, server: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (server.exitCode !== null) throw new Error(`fawn serve exited with ${server.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("fawn serve did not answer /health within 60 s");
}

async function runSuite(reportFile: string): Promise<void> {
  const vitest = join(REPO, "node_modules/.bin/vitest");
  // `CI` unset: with it, the suite would start its own server.
  const env = { ...process.env, CI: "" };
  await exec(
    vitest,
    [
      "run",
      "tests/api.test.mts",
      "--config",
      "vitest.config.js",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${reportFile}`,
    ],
    WORK,
    env,
    { allowFailure: true },
  );
}

function summarize(report: VitestReport): string {
  const tests = report.testResults.flatMap((file) => file.assertionResults);
  const failed = tests.filter((t) => t.status === "failed");
  const lines = [
    "# LangGraph API test suite against fawn serve",
    "",
    `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped, of ${report.numTotalTests}`,
    "",
    ...(failed.length ? ["## Failures", ""] : []),
    ...failed.map((t) => `- ${t.fullName}: ${firstLine(t.failureMessages[0] ?? "")}`),
    "",
  ];
  return lines.join("\n");
}

function firstLine(message: string): string {
  return (message.split("\n").find((line) => line.trim()) ?? "").trim().slice(0, 240);
}

async function exec(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  options: { allowFailure?: boolean } = {},
): Promise<void> {
  const child = spawn(command, args, { cwd, env, stdio: "inherit" });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0 && !options.allowFailure) throw new Error(`${command} exited with ${code}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
