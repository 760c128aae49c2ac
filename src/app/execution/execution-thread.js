// The execution worker thread's first module, plain JavaScript so it loads the same way from the
// sources and from a build: from the sources (a `.ts` module under tsx) it first registers tsx's
// loader in this thread, which a worker does not inherit from a test runner; then it imports the
// worker module the pool named.
import { workerData } from "node:worker_threads";

const module = workerData?.module;
if (typeof module !== "string")
  throw new Error("execution-thread.js: workerData.module is missing");
if (module.endsWith(".ts")) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(module);
