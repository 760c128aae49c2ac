import type { PluginEntry } from "../../core/config/schema.js";
import { ConfigError, describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { FawnPlugin } from "../api/plugin.js";
import { type DiagnosticStage, ExtensionDiagnostics } from "./diagnostics.js";
import type { LoadedExtensions, LoadedPlugin, PluginEntryOutcome } from "./loaded-extensions.js";
import { type BuiltinPlugins, resolvePluginExport } from "./resolve-plugin.js";
import { validateContributions } from "./validate-contributions.js";
import { pluginDeclarationProblem } from "./validate-plugin.js";

export interface LoadExtensionsOptions {
  /** `config.plugins`, in order. */
  entries: readonly PluginEntry[];
  builtins: BuiltinPlugins;
  /** The config file's folder (relative `use` paths resolve against it). */
  baseDir: string;
  logger?: Logger;
}

/** One entry's failure: where it happened and what to tell the operator. */
class EntryFailure {
  constructor(
    readonly stage: DiagnosticStage,
    readonly message: string,
    readonly namespace?: string,
  ) {}
}

/**
 * Loads `plugins:` in list order. Each entry is resolved, checked (shape, `apiVersion`,
 * namespace), installed and its contributions validated; any failure is a diagnostic and the
 * plugin contributes nothing (a plugin is kept only once everything about it checked out, so
 * there is nothing to roll back). A `required` entry's failure throws a `ConfigError` instead.
 * One plugin's failure never affects the others.
 */
export async function loadExtensions(options: LoadExtensionsOptions): Promise<LoadedExtensions> {
  const { logger } = options;
  const diagnostics = new ExtensionDiagnostics((diagnostic) =>
    logger?.warn({ plugin: diagnostic.plugin, stage: diagnostic.stage }, diagnostic.message),
  );
  const plugins: LoadedPlugin[] = [];
  const entries: PluginEntryOutcome[] = [];
  const namespaces = new Set<string>();
  for (const entry of options.entries) {
    const label = entry.name ?? entry.use;
    if (!entry.enabled) {
      entries.push(Object.freeze({ status: "disabled", label }));
      continue;
    }
    try {
      const plugin = await loadEntry(entry, label, options, namespaces);
      namespaces.add(plugin.namespace);
      plugins.push(plugin);
      entries.push(Object.freeze({ status: "loaded", label, plugin }));
    } catch (error) {
      const failure =
        error instanceof EntryFailure ? error : new EntryFailure("install", describeError(error));
      const diagnostic = diagnostics.record({
        plugin: label,
        ...(failure.namespace ? { namespace: failure.namespace } : {}),
        level: "error",
        stage: failure.stage,
        message: failure.message,
      });
      if (entry.required) {
        throw new ConfigError(
          `Required plugin "${label}" failed to load (${failure.stage}): ${failure.message}. Fix the plugin or its plugins: entry, or set required: false.`,
        );
      }
      entries.push(Object.freeze({ status: "failed", label, diagnostic }));
    }
  }
  if (options.entries.length > 0) {
    logger?.info(
      { loaded: plugins.map((plugin) => plugin.namespace) },
      `plugins loaded: ${plugins.length}/${options.entries.filter((entry) => entry.enabled).length}`,
    );
  }
  return Object.freeze({
    plugins: Object.freeze(plugins),
    entries: Object.freeze(entries),
    diagnostics,
  });
}

async function loadEntry(
  entry: PluginEntry,
  label: string,
  options: LoadExtensionsOptions,
  namespaces: ReadonlySet<string>,
): Promise<LoadedPlugin> {
  let exported: unknown;
  try {
    exported = await resolvePluginExport(entry.use, options);
  } catch (error) {
    throw new EntryFailure(
      "resolve",
      `could not load plugin "${entry.use}": ${describeError(error)}`,
    );
  }
  const problem = pluginDeclarationProblem(exported);
  if (problem) throw new EntryFailure("validate", problem);
  // Checked just above; the cast only names the type the check proved.
  const plugin = exported as FawnPlugin;
  const { namespace } = plugin;
  if (namespaces.has(namespace)) {
    throw new EntryFailure(
      "validate",
      `namespace "${namespace}" is already loaded by an earlier entry; each plugin instance needs its own namespace`,
      namespace,
    );
  }
  const settings = Object.freeze({ ...entry.config });
  let returned: unknown;
  try {
    returned = await plugin.install(settings);
  } catch (error) {
    throw new EntryFailure("install", `install() failed: ${describeError(error)}`, namespace);
  }
  let contributions: LoadedPlugin["contributions"];
  try {
    contributions = validateContributions(returned);
  } catch (error) {
    throw new EntryFailure("validate", describeError(error), namespace);
  }
  return Object.freeze({
    source: entry.use,
    label,
    namespace,
    version: plugin.version,
    apiVersion: plugin.apiVersion,
    title: plugin.title,
    description: plugin.description ?? "",
    settings,
    contributions,
  });
}

/** No plugins: what the host runs with when `plugins:` is empty or loading was skipped. */
export function emptyExtensions(): LoadedExtensions {
  return Object.freeze({
    plugins: Object.freeze([]),
    entries: Object.freeze([]),
    diagnostics: new ExtensionDiagnostics(),
  });
}
