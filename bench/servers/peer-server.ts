/**
 * Child process: the peer, `@langchain/langgraph-api`'s `startServer` (its in-memory server) on
 * 127.0.0.1, serving the same bench graph as Fawn under the same assistant id, with `nWorkers`
 * queue workers. Its state files go to a throw-away working directory.
 *
 * Usage (by the bench, bundled): node peer-server.mjs <n-workers> <work-dir> <graph-module>
 * where <graph-module> is the bundled bench/runtime/peer-graph.ts.
 */
import { startServer } from "@langchain/langgraph-api/server";
import { collectedMemory, serveParent } from "../lib/child-side.js";
import { BENCH_ASSISTANT } from "../runtime/bench-graph.js";

const [workersText, cwd, graphModule] = process.argv.slice(2);
const nWorkers = Number(workersText);
if (!Number.isInteger(nWorkers) || nWorkers < 1 || !cwd || !graphModule) {
  throw new Error("usage: peer-server <n-workers> <work-dir> <graph-module>");
}

const { host, cleanup } = await startServer({
  port: 0,
  host: "127.0.0.1",
  nWorkers,
  cwd,
  graphs: { [BENCH_ASSISTANT]: `${graphModule}:graph` },
});

serveParent(`http://${host}`, { memory: () => collectedMemory() });

process.once("SIGTERM", () => {
  void cleanup().finally(() => process.exit(0));
});
