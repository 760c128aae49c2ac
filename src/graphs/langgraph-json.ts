import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseEnv } from "node:util";
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { type GraphSpec, parseGraphSpec } from "./graph-spec.js";

/*
 * A `langgraph.json` in the LangGraph CLI's format. Fawn honours `graphs`, `env` and `http.app`;
 * `dependencies`, `node_version`, `store`, `ui` and the other keys are accepted so a project's
 * file works unchanged, and reported as not applied (docs/CONFIG.md says what each means here).
 */

const graphEntry = z.union([
  z.string().min(1),
  z.looseObject({ path: z.string().min(1), description: z.string().optional() }),
]);

const langgraphJsonSchema = z.looseObject({
  graphs: z.record(z.string(), graphEntry).default({}),
  env: z.union([z.record(z.string(), z.string()), z.string().min(1)]).optional(),
  dependencies: z.array(z.string()).optional(),
  node_version: z.union([z.string(), z.number()]).optional(),
  store: z.looseObject({}).optional(),
  ui: z.record(z.string(), z.string()).optional(),
  http: z.looseObject({ app: z.string().min(1).optional() }).optional(),
});

/** Largest langgraph.json / .env read: a configuration file, not data. */
const MAX_FILE_BYTES = 1024 * 1024;

/** Keys applied by Fawn; the rest are reported once at start-up. */
const APPLIED_KEYS = new Set(["graphs", "env", "http"]);

export interface LangGraphProject {
  /** The file read. */
  source: string;
  graphs: GraphSpec[];
  /** `env`: inline, or read from the `.env` file it names. */
  env: Record<string, string>;
  /** `http.app`: the Hono app mounted before Fawn's routes. */
  httpApp?: { file: string; exportName: string; origin: string };
  /** Keys present but not applied (`dependencies`, `store`, `ui`, …), for a start-up notice. */
  notApplied: string[];
}

export async function readLangGraphJson(path: string): Promise<LangGraphProject> {
  const source = resolve(path);
  const baseDir = dirname(source);
  const text = await readBounded(source, "langgraph.json");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid JSON (${(error as Error).message}).`, {
      cause: error,
    });
  }
  const parsed = langgraphJsonSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "(root)";
    throw new ConfigError(`${source}: ${where}: ${issue?.message ?? "invalid"}.`);
  }
  const json = parsed.data;
  const origin = `${source} graphs`;
  const graphs = Object.entries(json.graphs).map(([graphId, entry]) =>
    typeof entry === "string"
      ? parseGraphSpec(graphId, entry, { baseDir, origin })
      : parseGraphSpec(graphId, entry.path, {
          baseDir,
          origin,
          ...(entry.description ? { description: entry.description } : {}),
        }),
  );
  const env =
    typeof json.env === "string" ? await readEnvFile(resolve(baseDir, json.env)) : (json.env ?? {});
  const httpApp = json.http?.app ? httpAppSpec(json.http.app, baseDir, source) : undefined;
  const httpKeys = Object.keys(json.http ?? {}).filter((key) => key !== "app");
  const notApplied = [
    ...Object.keys(json).filter((key) => !APPLIED_KEYS.has(key)),
    ...httpKeys.map((key) => `http.${key}`),
  ];
  return { source, graphs, env, ...(httpApp ? { httpApp } : {}), notApplied };
}

function httpAppSpec(entry: string, baseDir: string, source: string) {
  const spec = parseGraphSpec("http", entry, { baseDir, origin: `${source} http.app` });
  return { file: spec.file, exportName: spec.exportName, origin: spec.origin };
}

async function readEnvFile(path: string): Promise<Record<string, string>> {
  const parsed = parseEnv(await readBounded(path, "env file"));
  return Object.fromEntries(
    Object.entries(parsed).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

async function readBounded(path: string, what: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(`${what} ${path} cannot be read: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  if (text.length > MAX_FILE_BYTES) {
    throw new ConfigError(
      `${what} ${path} is larger than 1 MiB; it should hold configuration only.`,
    );
  }
  return text;
}
