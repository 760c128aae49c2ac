#!/usr/bin/env node
// Launcher: the compiled CLI when `npm run build` produced one, else the TypeScript source
// through tsx (a dev dependency, present after `npm ci`).
import { existsSync } from "node:fs";

const compiled = new URL("../dist/cli/main.js", import.meta.url);
// sync-ok: one check at process start-up, before any server work.
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/cli/main.ts", import.meta.url).href);
}
