import type { FawnConfig } from "../../core/config/schema.js";
import type { Logger } from "../../core/logger.js";
import { ExecutionPool } from "./execution-pool.js";

/** Where `fawn serve` found its graphs, as the workers load them too. */
export interface ExecutionGraphSources {
  configDir: string;
  langgraphJson?: string;
}

/**
 * The execution workers `runtime.workers` asks for, once the served graphs are known: none when
 * it is 0 or when no graph besides the lead agent is served (the lead agent runs on the HTTP
 * thread). Resolves once every worker has loaded the graphs.
 */
export async function startExecutionWorkers(
  config: FawnConfig,
  sources: ExecutionGraphSources,
  logger: Logger,
  /** `entry`: a bundle's worker script; `logLevel`: the threads' (default `log_level`). */
  options: { entry?: URL; logLevel?: string } = {},
): Promise<ExecutionPool | null> {
  const workers = config.runtime.workers;
  const hasGraphs = Object.keys(config.graphs ?? {}).length > 0 || sources.langgraphJson;
  if (workers === 0 || !hasGraphs) return null;
  const pool = await ExecutionPool.start({
    workers,
    data: {
      graphs: {
        ...(config.graphs ? { configGraphs: config.graphs } : {}),
        configDir: sources.configDir,
        ...(sources.langgraphJson ? { langgraphJson: sources.langgraphJson } : {}),
      },
      ...(config.max_recursion_limit
        ? { limits: { maxRecursionLimit: config.max_recursion_limit } }
        : {}),
      logLevel: options.logLevel ?? config.log_level,
    },
    logger,
    ...(options.entry ? { entry: options.entry } : {}),
  });
  logger.info({ workers }, "execution workers started");
  return pool;
}
