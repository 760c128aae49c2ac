import type {
  BackendAction,
  ExtensionService,
  ModelTool,
  PluginMiddleware,
  PluginRoute,
} from "../api/plugin.js";
import type { ExtensionDiagnostic, ExtensionDiagnostics } from "./diagnostics.js";

/** A plugin's contributions after validation: every list present, frozen. */
export interface PluginParts {
  readonly actions: readonly BackendAction[];
  readonly tools: readonly ModelTool[];
  readonly services: readonly ExtensionService[];
  readonly middlewares: readonly PluginMiddleware[];
  readonly routes: readonly PluginRoute[];
}

/** One plugin the host loaded: its identity, its entry's settings, and what it contributed. */
export interface LoadedPlugin {
  /** The entry's `use`. */
  readonly source: string;
  /** The entry's `name`, else its `use`: how diagnostics and `fawn doctor` name it. */
  readonly label: string;
  readonly namespace: string;
  readonly version: string;
  readonly apiVersion: string;
  readonly title: string;
  readonly description: string;
  /** The entry's `config`, as `install` saw it. */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly contributions: PluginParts;
}

/** What became of one `plugins:` entry, in list order. */
export type PluginEntryOutcome =
  | { readonly status: "loaded"; readonly label: string; readonly plugin: LoadedPlugin }
  | { readonly status: "disabled"; readonly label: string }
  | {
      readonly status: "failed";
      readonly label: string;
      readonly diagnostic: ExtensionDiagnostic;
    };

/** The immutable result of loading `plugins:` (the diagnostics list stays live). */
export interface LoadedExtensions {
  readonly plugins: readonly LoadedPlugin[];
  readonly entries: readonly PluginEntryOutcome[];
  readonly diagnostics: ExtensionDiagnostics;
}
