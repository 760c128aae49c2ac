#!/usr/bin/env node
// Launcher: the compiled CLI when `npm run build` produced one, else the TypeScript source
// through tsx (a dev dependency, present after `npm ci`). tsx is registered in both cases when
// it is installed: graphs served from a langgraph.json or `graphs:` are often TypeScript files.
import { existsSync } from "node:fs";

async function registerTsx() {
  try {
    const { register } = await import("tsx/esm/api");
    register();
    return true;
  } catch {
    return false;
  }
}

const compiled = new URL("../dist/cli/main.js", import.meta.url);
// sync-ok: one check at process start-up, before any server work.
if (existsSync(compiled)) {
  await registerTsx();
  await import(compiled.href);
} else {
  if (!(await registerTsx())) {
    process.stderr.write("fawn: no build in dist/ and tsx is not installed; run `npm ci` or `npm run build`.\n");
    process.exit(1);
  }
  await import(new URL("../src/cli/main.ts", import.meta.url).href);
}
