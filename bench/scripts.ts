import { agentLoadBench } from "./agent-load/run.js";
import { chaosBench } from "./chaos/run.js";
import { eventsBench } from "./events/run.js";
import type { BenchScript } from "./lib/bench-script.js";
import { loopLagBench } from "./loop-lag/run.js";
import { recoveryBench } from "./recovery/run.js";
import { runtimeBench } from "./runtime/run.js";
import { scaleOutBench } from "./scale-out/run.js";
import { storageBench } from "./storage-report/run.js";
import { webBench } from "./web/run.js";

/** Every script `npm run bench` runs, in this order. */
export const BENCH_SCRIPTS: readonly BenchScript[] = [
  runtimeBench,
  eventsBench,
  loopLagBench,
  agentLoadBench,
  storageBench,
  recoveryBench,
  webBench,
  chaosBench,
  scaleOutBench,
];
