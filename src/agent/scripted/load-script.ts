import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { ConfigError, describeError } from "../../core/errors.js";
import { parseScript, type Script } from "./script-schema.js";

/** Reads a script file (YAML or JSON; JSON is valid YAML) without blocking the event loop. */
export async function loadScript(path: string, baseDir = process.cwd()): Promise<Script> {
  const file = resolve(baseDir, path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ConfigError(`Cannot read scripted-model script ${file}: ${describeError(error)}`, {
      cause: error,
    });
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`Cannot parse scripted-model script ${file}: ${describeError(error)}`, {
      cause: error,
    });
  }
  return parseScript(raw, file);
}
