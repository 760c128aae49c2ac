import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { FawnConfig } from "../core/config/schema.js";
import { AgentRunError, ConfigError, describeError } from "../core/errors.js";
import { LogThrottle } from "../core/log-throttle.js";
import type { Logger } from "../core/logger.js";
import type { AgentRunsProvider } from "../extensions/agent-runs-provider.js";
import type { AgentRuns } from "../extensions/api/agent-runs.js";
import type {
  ExtensionService,
  ExtensionServiceDeps,
  PluginDatabase,
  PluginLogger,
} from "../extensions/api/plugin.js";
import {
  type BuiltinPlugins,
  type DiagnosticStage,
  type LoadedExtensions,
  type LoadedPlugin,
  loadExtensions,
} from "../extensions/host/index.js";
import { BUILTIN_PLUGINS } from "./builtin-plugins.js";
import { openPluginDatabase } from "./plugin-database.js";

/** How a plugin service opens its database (`src/app/plugin-database.ts` implements it). */
export type OpenPluginDatabase = (
  url: string,
  options: { sqlitePath?: string },
) => Promise<PluginDatabase>;

export const DEFAULT_TICK_INTERVAL_MS = 1000;
export const SERVICE_STOP_TIMEOUT_MS = 30_000;
/** A service whose tick keeps failing leaves one diagnostic per this interval. */
const TICK_FAILURE_INTERVAL_MS = 60_000;

/**
 * Run handles for plugins: the agent, plugin tools and services are built before the run-handle
 * host exists (it needs the runtime), so they hold this slot, attached right after. Until then
 * every caller gets none.
 */
export class AgentRunsSlot implements AgentRunsProvider {
  #provider: AgentRunsProvider | null = null;

  attach(provider: AgentRunsProvider | null): void {
    this.#provider = provider;
  }

  get attached(): boolean {
    return this.#provider !== null;
  }

  bind(principal: Parameters<AgentRunsProvider["bind"]>[0]): AgentRuns | null {
    return this.#provider?.bind(principal) ?? null;
  }
}

export interface PluginHostOptions {
  extensions: LoadedExtensions;
  /** `config.database.url`, handed to services. */
  databaseUrl: string;
  /** FAWN_HOME: each plugin owns `<home>/extensions/<namespace>`. */
  home: string;
  agentRuns: AgentRunsProvider | null;
  /** Default: refuses with a clear error (`preparePlugins` passes `openPluginDatabase`). */
  openDatabase?: OpenPluginDatabase;
  logger: Logger;
  /** Test seam (default 30 s per step of a stop). */
  stopTimeoutMs?: number;
}

/** A service the host attempted to start: it owns a stop even if its start failed. */
interface RunningService {
  plugin: LoadedPlugin;
  service: ExtensionService;
  ticks: AbortController;
  /** The tick in progress, awaited before `stop()`. */
  inFlight: Promise<void> | null;
  timer: NodeJS.Timeout | null;
}

/**
 * Starts plugins' services in load order once the runtime is up, ticks them (never overlapping
 * a service's own previous tick), and stops them in reverse order. Every failure is a diagnostic
 * of that plugin: the host and the other plugins go on.
 */
export class PluginHost {
  readonly #options: PluginHostOptions;
  readonly #running: RunningService[] = [];
  readonly #tickFailures = new LogThrottle(TICK_FAILURE_INTERVAL_MS);
  #stopped = false;

  constructor(options: PluginHostOptions) {
    this.#options = options;
  }

  async start(): Promise<void> {
    for (const plugin of this.#options.extensions.plugins) {
      for (const service of plugin.contributions.services) {
        if (this.#stopped) return;
        const running: RunningService = {
          plugin,
          service,
          ticks: new AbortController(),
          inFlight: null,
          timer: null,
        };
        // Recorded before start is awaited: a service that failed half-way still gets its stop.
        this.#running.push(running);
        try {
          await service.start(await this.#depsFor(plugin, service));
        } catch (error) {
          this.#diagnose(
            plugin,
            "start",
            `service ${service.name}: start failed: ${describeError(error)}`,
          );
          continue;
        }
        if (service.tick) this.#scheduleTick(running);
      }
    }
  }

  /** Reverse order: abort the tick, await it, then `stop()`, each bounded. Never throws. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const timeoutMs = this.#options.stopTimeoutMs ?? SERVICE_STOP_TIMEOUT_MS;
    for (const running of [...this.#running].reverse()) {
      const { plugin, service } = running;
      if (running.timer) clearTimeout(running.timer);
      running.timer = null;
      running.ticks.abort();
      if (running.inFlight) {
        const drained = await within(running.inFlight, timeoutMs);
        if (!drained) {
          this.#diagnose(
            plugin,
            "stop",
            `service ${service.name}: tick did not end within ${timeoutMs} ms of the stop`,
          );
        }
      }
      try {
        const stopped = await within(service.stop(), timeoutMs);
        if (!stopped)
          this.#diagnose(
            plugin,
            "stop",
            `service ${service.name}: stop timed out after ${timeoutMs} ms`,
          );
      } catch (error) {
        this.#diagnose(
          plugin,
          "stop",
          `service ${service.name}: stop failed: ${describeError(error)}`,
        );
      }
    }
    this.#running.length = 0;
  }

  #scheduleTick(running: RunningService): void {
    if (this.#stopped || running.ticks.signal.aborted) return;
    const interval = running.service.tickIntervalMs ?? DEFAULT_TICK_INTERVAL_MS;
    running.timer = setTimeout(() => {
      running.timer = null;
      running.inFlight = this.#tickOnce(running).finally(() => {
        running.inFlight = null;
        this.#scheduleTick(running);
      });
    }, interval);
  }

  async #tickOnce(running: RunningService): Promise<void> {
    const { plugin, service } = running;
    try {
      await service.tick?.(running.ticks.signal);
    } catch (error) {
      if (running.ticks.signal.aborted) return;
      const dropped = this.#tickFailures.admit(`${plugin.namespace}:${service.name}`);
      if (dropped === null) return;
      const suffix = dropped > 0 ? ` (${dropped} similar failures not recorded)` : "";
      this.#diagnose(
        plugin,
        "tick",
        `service ${service.name}: tick failed: ${describeError(error)}${suffix}`,
      );
    }
  }

  async #depsFor(plugin: LoadedPlugin, service: ExtensionService): Promise<ExtensionServiceDeps> {
    const options = this.#options;
    const dataDir = join(options.home, "extensions", plugin.namespace);
    await mkdir(dataDir, { recursive: true });
    const open = options.openDatabase ?? refuseDatabase;
    const provider = options.agentRuns;
    return {
      databaseUrl: options.databaseUrl,
      dataDir,
      openDatabase: (databaseOptions) => open(options.databaseUrl, databaseOptions ?? {}),
      agentRunsFor(userId) {
        const handle = provider?.bind({ userId, via: "service" })?.forPlugin(plugin.namespace);
        if (!handle) {
          throw new AgentRunError(
            503,
            "Agent runs are not available to plugin services in this server yet; retry once it has started.",
          );
        }
        return handle;
      },
      logger: pluginLogger(
        options.logger.child({ plugin: plugin.namespace, service: service.name }),
      ),
    };
  }

  #diagnose(plugin: LoadedPlugin, stage: DiagnosticStage, message: string): void {
    this.#options.extensions.diagnostics.record({
      plugin: plugin.label,
      namespace: plugin.namespace,
      level: "error",
      stage,
      message,
    });
  }
}

const refuseDatabase: OpenPluginDatabase = () =>
  Promise.reject(
    new ConfigError(
      "This server offers plugins no database connection (no plugin database layer is wired in).",
    ),
  );

function pluginLogger(logger: Logger): PluginLogger {
  return {
    info: (message, fields) => logger.info(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    error: (message, fields) => logger.error(fields ?? {}, message),
  };
}

/** True when `work` settled within `ms` (its rejection is rethrown); false on timeout. */
async function within(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What `createFawn` takes for plugins (all optional). */
export interface PluginSettings {
  /** Where relative `plugins[].use` paths resolve: the config file's folder (default: cwd). */
  pluginBaseDir?: string;
  /** Default: `BUILTIN_PLUGINS`. */
  builtinPlugins?: BuiltinPlugins;
  /** Run handles for plugins (default: the run-handle host over this runtime). */
  agentRuns?: AgentRunsProvider;
  /** How plugin services open their database (default: `openPluginDatabase`). */
  openPluginDatabase?: OpenPluginDatabase;
}

export interface PreparedPlugins {
  extensions: LoadedExtensions;
  agentRuns: AgentRunsSlot;
  host: PluginHost;
}

/** Loads `config.plugins` (a `required` failure throws) and builds the host that runs their services. */
export async function preparePlugins(
  config: Pick<FawnConfig, "plugins" | "home" | "database">,
  settings: PluginSettings,
  logger: Logger,
): Promise<PreparedPlugins> {
  const extensions = await loadExtensions({
    // Hand-built configs (embedders, older tests) may lack the key.
    entries: config.plugins ?? [],
    builtins: settings.builtinPlugins ?? BUILTIN_PLUGINS,
    baseDir: settings.pluginBaseDir ?? process.cwd(),
    logger: logger.child({ component: "plugins" }),
  });
  // Attached by createFawn once the runtime (and so the run-handle host) exists.
  const agentRuns = new AgentRunsSlot();
  const host = new PluginHost({
    extensions,
    databaseUrl: config.database.url,
    home: config.home,
    agentRuns,
    openDatabase: settings.openPluginDatabase ?? openPluginDatabase,
    logger: logger.child({ component: "plugins" }),
  });
  return { extensions, agentRuns, host };
}
