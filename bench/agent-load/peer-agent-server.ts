/**
 * Child process: the peer, `@langchain/langgraph-api`'s in-memory `startServer` on 127.0.0.1,
 * serving the agent-load graph under the lead agent's id with `nWorkers` queue workers (one per
 * concurrent run: its best case). The graph module reads the mock's URL from the environment.
 * Answers `lag-start` / `lag-stop` over IPC, like Fawn's.
 *
 * Usage (by the bench, bundled): node peer-agent-server.mjs <n-workers> <work-dir> <graph-module>
 */
import { startServer } from "@langchain/langgraph-api/server";
import { serveParent } from "../lib/child-side.js";
import { LoopDelayProbe } from "../lib/loop-delay.js";
import { BENCH_ASSISTANT } from "../runtime/bench-graph.js";

const [workersText, cwd, graphModule] = process.argv.slice(2);
const nWorkers = Number(workersText);
if (!Number.isInteger(nWorkers) || nWorkers < 1 || !cwd || !graphModule) {
  throw new Error("usage: peer-agent-server <n-workers> <work-dir> <graph-module>");
}

const { host, cleanup } = await startServer({
  port: 0,
  host: "127.0.0.1",
  nWorkers,
  cwd,
  graphs: { [BENCH_ASSISTANT]: `${graphModule}:graph` },
});

const probe = new LoopDelayProbe();
serveParent(`http://${host}`, {
  "lag-start": () => probe.start(),
  "lag-stop": () => probe.stop(),
});

process.once("SIGTERM", () => {
  void cleanup().finally(() => process.exit(0));
});
