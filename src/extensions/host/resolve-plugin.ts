import { createRequire } from "node:module";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError } from "../../core/errors.js";
import type { FawnPlugin } from "../api/plugin.js";
import { isRecord } from "./payload-schema.js";

/** Built-in plugins by name: each loads its module only when an entry uses it. */
export type BuiltinPlugins = Readonly<Record<string, () => Promise<FawnPlugin>>>;

export interface ResolveOptions {
  builtins: BuiltinPlugins;
  /** Where relative paths and packages are looked up: the config file's folder. */
  baseDir: string;
}

/**
 * What an entry's `use` names: a built-in plugin, or a module (`./plugin.js`, `/abs/plugin.js`,
 * `@scope/pkg`) with an optional `#export` (default: the default export, else `plugin`). Returns
 * the export unchecked; the loader validates it.
 */
export async function resolvePluginExport(use: string, options: ResolveOptions): Promise<unknown> {
  const builtin = Object.hasOwn(options.builtins, use) ? options.builtins[use] : undefined;
  if (builtin) return builtin();
  const hash = use.lastIndexOf("#");
  const specifier = hash > 0 ? use.slice(0, hash) : use;
  const exportName = hash > 0 ? use.slice(hash + 1) : null;
  const loaded: unknown = await import(moduleUrl(specifier, options.baseDir));
  if (!isRecord(loaded)) throw new ConfigError(`module "${specifier}" has no exports`);
  if (exportName !== null) {
    if (!Object.hasOwn(loaded, exportName)) {
      throw new ConfigError(`module "${specifier}" has no export named "${exportName}"`);
    }
    return loaded[exportName];
  }
  if (loaded.default !== undefined) return loaded.default;
  if (loaded.plugin !== undefined) return loaded.plugin;
  throw new ConfigError(
    `module "${specifier}" has neither a default export nor one named "plugin"; name the export with "${specifier}#<name>"`,
  );
}

function moduleUrl(specifier: string, baseDir: string): string {
  if (isPathSpecifier(specifier)) {
    const path = isAbsolute(specifier) ? specifier : resolve(baseDir, specifier);
    return pathToFileURL(path).href;
  }
  if (specifier.startsWith("file:")) return specifier;
  // A package installed next to the config file first; else one Fawn itself can import. (Once
  // per entry at start-up, like the import itself: module resolution reads the disk.)
  try {
    return pathToFileURL(createRequire(join(baseDir, "config.yaml")).resolve(specifier)).href;
  } catch {
    return specifier;
  }
}

function isPathSpecifier(specifier: string): boolean {
  return (
    specifier.startsWith("./") ||
    specifier.startsWith("../") ||
    specifier === "." ||
    isAbsolute(specifier)
  );
}
