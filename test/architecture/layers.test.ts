/**
 * The layer rules of docs/ARCHITECTURE.md, checked: every import in `src/` (production files;
 * unit tests beside them may reach across) goes to its own folder or to a folder its layer may
 * depend on. An upward or sideways import fails here with the file and the import named.
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** Top-level folders of `src/` and the folders each may import from (besides itself). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  core: [],
  ports: ["core"],
  stores: ["ports", "core"],
  runtime: ["ports", "core"],
  auth: ["ports", "core"],
  sandbox: ["ports", "core"],
  extensions: ["sandbox", "ports", "core"],
  // A plugin is written against the extension API alone, like one installed from npm.
  plugins: ["extensions"],
  agent: ["extensions", "sandbox", "ports", "core"],
  // Graphs loaded from configuration (`langgraph.json`, `graphs:`), adapted to the runtime's ports.
  graphs: ["ports", "core"],
  gateway: ["runtime", "auth", "agent", "extensions", "sandbox", "ports", "core"],
  app: [
    "graphs",
    "gateway",
    "runtime",
    "stores",
    "auth",
    "agent",
    "plugins",
    "extensions",
    "sandbox",
    "ports",
    "core",
  ],
  cli: [
    "app",
    "graphs",
    "gateway",
    "runtime",
    "stores",
    "auth",
    "agent",
    "plugins",
    "extensions",
    "sandbox",
    "ports",
    "core",
  ],
};

async function productionSources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? productionSources(join(dir, entry.name))
        : Promise.resolve([join(dir, entry.name)]),
    ),
  );
  return nested.flat().filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"));
}

/** The top-level folder of `src/` a path lies in; null for a file directly in `src/`. */
function layerOf(file: string): string | null {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? (parts[0] ?? null) : null;
}

interface Violation {
  file: string;
  imports: string;
}

async function violations(): Promise<{ checked: number; found: Violation[] }> {
  const files = await productionSources(SRC);
  const found: Violation[] = [];
  for (const file of files) {
    const from = layerOf(file);
    if (from === null) continue; // src/index.ts: the package entry point re-exports any layer.
    const allowed = MAY_IMPORT[from];
    if (!allowed) {
      found.push({ file: relative(SRC, file), imports: `(folder ${from} has no layer rule)` });
      continue;
    }
    const info = ts.preProcessFile(await readFile(file, "utf8"), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = resolve(dirname(file), fileName);
      if (!target.startsWith(SRC + sep)) {
        found.push({ file: relative(SRC, file), imports: fileName });
        continue;
      }
      const to = layerOf(target);
      if (to !== null && to !== from && !allowed.includes(to)) {
        found.push({ file: relative(SRC, file), imports: relative(SRC, target) });
      }
    }
  }
  return { checked: files.length, found };
}

it("every import in src/ follows the layer rules", async () => {
  const { checked, found } = await violations();
  expect(checked).toBeGreaterThan(200);
  expect(found).toEqual([]);
});

it("every top-level folder of src/ has a layer rule", async () => {
  const entries = await readdir(SRC, { withFileTypes: true });
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  expect(folders.filter((name) => !(name in MAY_IMPORT))).toEqual([]);
});
