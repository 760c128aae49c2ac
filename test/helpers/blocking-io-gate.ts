/**
 * A test-time gate against blocking IO on the event loop (server code never blocks it; seed 002): while it is on,
 * synchronous `fs` calls (every `*Sync` export, e.g. readFileSync, statSync, writeSync, fsyncSync)
 * and `child_process` execSync / execFileSync / spawnSync throw a `BlockingIoError` naming the call.
 *
 * How: the CommonJS module objects of `node:fs` and `node:child_process` are patched and
 * `syncBuiltinESMExports()` pushes the patch into the ESM bindings, so `import { readFileSync }`,
 * `import fs` and `import * as fs` callers all see it; restoring works the same way.
 *
 * Scope: `withBlockingIoGate(fn)` gates only code running in `fn`'s async context (everything it
 * awaits, schedules or calls), tracked with AsyncLocalStorage — other tests and vitest's own
 * bookkeeping in the same process are untouched. `enableBlockingIoGate()` gates the whole process
 * until its disposer runs. `allowBlockingIo(fn)` opens a hole for test setup inside a gate.
 *
 * Allowed through even while gated, because they are not the code under test:
 * - calls whose immediate caller is Node's own internals (`node:internal/...`), e.g. the CommonJS
 *   loader reading a file for `require()`: module loading, not request-path IO;
 * - calls whose immediate caller is the test runner (`node_modules/vitest`, `@vitest/*`, `vite`),
 *   e.g. reading source maps to print a failure;
 * - sync calls made inside an allowed sync call (readFileSync calls openSync internally).
 * Any other caller is blocked, including other libraries: a library doing sync IO on a request
 * path stalls the loop just the same.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire, syncBuiltinESMExports } from "node:module";

export class BlockingIoError extends Error {
  /** The blocked call, e.g. `fs.readFileSync`. */
  readonly call: string;

  constructor(call: string) {
    super(
      `Blocking IO on the event loop: ${call}() was called while the blocking-IO gate is on. ` +
        "Use fs/promises or async child_process in server code; wrap test setup in allowBlockingIo().",
    );
    this.name = "BlockingIoError";
    this.call = call;
  }
}

interface Patch {
  owner: object;
  key: string;
  original: unknown;
  replacement: unknown;
}

const requireBuiltin = createRequire(import.meta.url);
const fsModule: Record<string, unknown> = requireBuiltin("node:fs");
const childProcessModule: Record<string, unknown> = requireBuiltin("node:child_process");
const CHILD_PROCESS_SYNC_CALLS = ["execSync", "execFileSync", "spawnSync"];
const TEST_RUNNER_FILE = /[\\/]node_modules[\\/](?:vitest|@vitest[\\/][^\\/]+|vite)[\\/]/;

const scope = new AsyncLocalStorage<"gated" | "allowed">();
let processWideGates = 0;
let installCount = 0;
let nestedDepth = 0;
let patches: Patch[] = [];

/** Runs `fn` with the gate on for everything in its async context; restores afterwards. */
export async function withBlockingIoGate<T>(fn: () => T | Promise<T>): Promise<T> {
  install();
  try {
    return await scope.run("gated", fn);
  } finally {
    uninstall();
  }
}

/** Turns the gate on for the whole process; the returned function (idempotent) turns it off. */
export function enableBlockingIoGate(): () => void {
  install();
  processWideGates += 1;
  let disposed = false;
  return () => {
    if (disposed) return;
    disposed = true;
    processWideGates -= 1;
    uninstall();
  };
}

/** Runs `fn` (and its async continuations) with sync IO allowed, for setup inside a gate. */
export function allowBlockingIo<T>(fn: () => T): T {
  return scope.run("allowed", fn);
}

function isGated(): boolean {
  const state = scope.getStore();
  if (state !== undefined) return state === "gated";
  return processWideGates > 0;
}

function install(): void {
  installCount += 1;
  if (installCount > 1) return;
  patches = [];
  for (const [key, value] of Object.entries(fsModule)) {
    if (key.endsWith("Sync") && typeof value === "function") patch(fsModule, key, `fs.${key}`);
  }
  const realpathSync = fsModule.realpathSync;
  if (typeof realpathSync === "function" && "native" in realpathSync) {
    patch(realpathSync, "native", "fs.realpathSync.native");
  }
  for (const key of CHILD_PROCESS_SYNC_CALLS) {
    patch(childProcessModule, key, `child_process.${key}`);
  }
  syncBuiltinESMExports();
}

function uninstall(): void {
  installCount -= 1;
  if (installCount > 0) return;
  for (const { owner, key, original, replacement } of patches.reverse()) {
    // Someone who patched after us (a spy) keeps their function; we only take back our own.
    if (Reflect.get(owner, key) === replacement) Reflect.set(owner, key, original);
  }
  patches = [];
  syncBuiltinESMExports();
}

function patch(owner: object, key: string, call: string): void {
  const original: unknown = Reflect.get(owner, key);
  if (typeof original !== "function") return;
  const replacement = function (this: unknown, ...args: unknown[]): unknown {
    if (nestedDepth === 0 && isGated() && !isAllowedCaller(callerFileOf(replacement))) {
      throw new BlockingIoError(call);
    }
    nestedDepth += 1;
    try {
      return Reflect.apply(original, this, args);
    } finally {
      nestedDepth -= 1;
    }
  };
  // Keep attached properties such as realpathSync.native reachable.
  Object.assign(replacement, original);
  Reflect.set(owner, key, replacement);
  patches.push({ owner, key, original, replacement });
}

function isAllowedCaller(file: string | undefined): boolean {
  if (file === undefined) return false;
  return file.startsWith("node:internal/") || TEST_RUNNER_FILE.test(file);
}

/** File of the nearest frame with a file name above `fn` (native frames such as Array#map have none). */
function callerFileOf(fn: (...args: never[]) => unknown): string | undefined {
  const savedPrepare = Error.prepareStackTrace;
  const savedLimit = Error.stackTraceLimit;
  let sites: NodeJS.CallSite[] = [];
  try {
    Error.prepareStackTrace = (_error, callSites) => {
      sites = callSites;
      return "";
    };
    Error.stackTraceLimit = 8;
    const holder: { stack?: string } = {};
    Error.captureStackTrace(holder, fn);
    // V8 formats the trace lazily, on first read of `stack`; that read runs the hook above.
    void holder.stack;
  } finally {
    Error.prepareStackTrace = savedPrepare;
    Error.stackTraceLimit = savedLimit;
  }
  for (const site of sites) {
    const file = site.getFileName();
    if (file) return file;
  }
  return undefined;
}
