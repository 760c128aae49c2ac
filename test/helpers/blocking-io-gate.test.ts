/**
 * Meta-tests: the gate has teeth (so tests that run under it cannot pass vacuously) and lets go.
 */
import { execFileSync, execSync, spawnSync } from "node:child_process";
import * as fsNamespace from "node:fs";
import fs, { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allowBlockingIo,
  BlockingIoError,
  enableBlockingIoGate,
  withBlockingIoGate,
} from "./blocking-io-gate.js";

// Taken before any gate runs, to prove the gate puts back the very same functions.
const originalReadFileSync = readFileSync;
const originalExecSync = execSync;

let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fawn-gate-"));
  file = join(dir, "probe.txt");
  await writeFile(file, "probe");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function blockedCall(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof BlockingIoError) return error.call;
    throw error;
  }
  return undefined;
}

describe("blocking-IO gate has teeth", () => {
  it("blocks a named ESM import of readFileSync", async () => {
    await withBlockingIoGate(() => {
      expect(blockedCall(() => readFileSync(file, "utf8"))).toBe("fs.readFileSync");
    });
  });

  it("blocks calls through the default import and the namespace", async () => {
    await withBlockingIoGate(() => {
      expect(blockedCall(() => fs.statSync(file))).toBe("fs.statSync");
      expect(blockedCall(() => fs.existsSync(file))).toBe("fs.existsSync");
      expect(blockedCall(() => fsNamespace.readdirSync(dir))).toBe("fs.readdirSync");
    });
  });

  it("blocks writes, descriptors and realpath variants", async () => {
    await withBlockingIoGate(() => {
      expect(blockedCall(() => writeFileSync(join(dir, "x"), "x"))).toBe("fs.writeFileSync");
      expect(blockedCall(() => fs.openSync(file, "r"))).toBe("fs.openSync");
      expect(blockedCall(() => fs.fsyncSync(0))).toBe("fs.fsyncSync");
      expect(blockedCall(() => realpathSync(dir))).toBe("fs.realpathSync");
      expect(blockedCall(() => realpathSync.native(dir))).toBe("fs.realpathSync.native");
    });
  });

  it("blocks synchronous child processes", async () => {
    await withBlockingIoGate(() => {
      expect(blockedCall(() => execSync("true"))).toBe("child_process.execSync");
      expect(blockedCall(() => execFileSync("true"))).toBe("child_process.execFileSync");
      expect(blockedCall(() => spawnSync("true"))).toBe("child_process.spawnSync");
    });
  });

  it("names the call and the remedy in the message", async () => {
    await withBlockingIoGate(() => {
      expect(() => readFileSync(file)).toThrow(/fs\.readFileSync\(\).*fs\/promises/);
    });
  });

  it("follows the gated function across awaits and timers", async () => {
    await withBlockingIoGate(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(blockedCall(() => existsSync(file))).toBe("fs.existsSync");
      const inTimer = await new Promise<string | undefined>((resolve) => {
        setImmediate(() => resolve(blockedCall(() => existsSync(file))));
      });
      expect(inTimer).toBe("fs.existsSync");
    });
  });

  it("blocks the whole process between enable and dispose", () => {
    const dispose = enableBlockingIoGate();
    try {
      expect(blockedCall(() => readFileSync(file))).toBe("fs.readFileSync");
    } finally {
      dispose();
      dispose();
    }
    expect(readFileSync(file, "utf8")).toBe("probe");
  });
});

describe("blocking-IO gate lets go", () => {
  it("leaves fs/promises working inside the gate", async () => {
    await withBlockingIoGate(async () => {
      await writeFile(join(dir, "async.txt"), "async");
      expect(await readFile(join(dir, "async.txt"), "utf8")).toBe("async");
      expect((await stat(dir)).isDirectory()).toBe(true);
    });
  });

  it("restores every sync call after the gate, also after a failure inside it", async () => {
    await expect(
      withBlockingIoGate(() => {
        readFileSync(file);
      }),
    ).rejects.toBeInstanceOf(BlockingIoError);
    expect(readFileSync).toBe(originalReadFileSync);
    expect(fs.readFileSync).toBe(originalReadFileSync);
    expect(execSync).toBe(originalExecSync);
    expect(readFileSync(file, "utf8")).toBe("probe");
    expect(fs.existsSync(file)).toBe(true);
    expect(fsNamespace.statSync(file).isFile()).toBe(true);
    expect(execFileSync(process.execPath, ["-e", "process.stdout.write('ok')"]).toString()).toBe(
      "ok",
    );
  });

  it("allows sync IO inside allowBlockingIo, for test setup", async () => {
    await withBlockingIoGate(async () => {
      expect(allowBlockingIo(() => readFileSync(file, "utf8"))).toBe("probe");
      await allowBlockingIo(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        expect(existsSync(file)).toBe(true);
      });
      expect(blockedCall(() => existsSync(file))).toBe("fs.existsSync");
    });
  });

  it("gates only the given function, not code running beside it", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gated = withBlockingIoGate(async () => {
      await released;
      expect(blockedCall(() => existsSync(file))).toBe("fs.existsSync");
    });
    // The gate is installed, but this code is outside the gated async context.
    expect(readFileSync(file, "utf8")).toBe("probe");
    release();
    await gated;
  });

  it("keeps an outer gate on when a nested gate ends", async () => {
    await withBlockingIoGate(async () => {
      await withBlockingIoGate(() => undefined);
      expect(blockedCall(() => existsSync(file))).toBe("fs.existsSync");
    });
  });

  it("lets Node's own module loader read files for require()", async () => {
    const jsonPath = join(dir, "data.json");
    await writeFile(jsonPath, '{"loaded": true}');
    const require = createRequire(import.meta.url);
    await withBlockingIoGate(() => {
      expect(require(jsonPath)).toEqual({ loaded: true });
    });
  });

  it("lets the test runner's own sync calls through, with the calls they make", async () => {
    // A stand-in for vitest internals: same path shape, so the caller check treats it alike.
    const runnerDir = join(dir, "node_modules", "vitest");
    await mkdir(runnerDir, { recursive: true });
    const runnerFile = join(runnerDir, "append.cjs");
    await writeFile(
      runnerFile,
      'module.exports = (path) => require("node:fs").appendFileSync(path, "log\\n");',
    );
    const appendAsRunner: (path: string) => void = createRequire(import.meta.url)(runnerFile);
    const log = join(dir, "runner.log");
    await withBlockingIoGate(() => {
      // appendFileSync itself calls fs.writeFileSync, whose caller is node:fs, not the runner.
      appendAsRunner(log);
    });
    expect(await readFile(log, "utf8")).toBe("log\n");
  });
});
