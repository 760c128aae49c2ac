/**
 * How a pool starts its threads: `execution-thread.js` (plain JavaScript, beside this module in the
 * sources and in `dist/`) given the worker module to import — `.ts` when Fawn runs from its
 * sources, `.js` when compiled.
 */
export function executionWorkerEntry(): { script: URL; module: string } {
  const extension = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  return {
    script: new URL("./execution-thread.js", import.meta.url),
    module: new URL(`./execution-worker${extension}`, import.meta.url).href,
  };
}
