import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  defaultPublishFileOps,
  type PublishFileOps,
  type PublishHandle,
  publishFileAtomically,
} from "./atomic-file.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "fawn-atomic-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function listDir(): Promise<string[]> {
  return (await readdir(dir)).sort();
}

/** Like a full disk: half the bytes reach the file, then the write fails. */
const failsHalfwayThroughWrite: PublishFileOps = {
  ...defaultPublishFileOps,
  async open(path, flags, mode) {
    const real = await defaultPublishFileOps.open(path, flags, mode);
    const handle: PublishHandle = {
      async writeFile(data) {
        await real.writeFile(typeof data === "string" ? data.slice(0, data.length / 2) : data);
        throw Object.assign(new Error("No space left on device"), { code: "ENOSPC" });
      },
      sync: () => real.sync(),
      close: () => real.close(),
    };
    return handle;
  },
};

describe("publishFileAtomically", () => {
  it("publishes the whole content and leaves no temp file", async () => {
    const target = join(dir, "out.txt");
    await publishFileAtomically(target, "Y".repeat(100));
    expect(await readFile(target, "utf8")).toBe("Y".repeat(100));
    expect(await listDir()).toEqual(["out.txt"]);
  });

  it("replaces an existing file with bytes", async () => {
    const target = join(dir, "out.bin");
    await writeFile(target, "old");
    await publishFileAtomically(target, new Uint8Array([1, 2, 3]));
    expect([...(await readFile(target))]).toEqual([1, 2, 3]);
    expect(await listDir()).toEqual(["out.bin"]);
  });

  it("leaves no file behind when the write fails part-way", async () => {
    const target = join(dir, "out.txt");
    await expect(
      publishFileAtomically(target, "X".repeat(100), { ops: failsHalfwayThroughWrite }),
    ).rejects.toThrow("No space left on device");
    expect(await listDir()).toEqual([]);
  });

  it("keeps the previous complete file when the write fails part-way", async () => {
    const target = join(dir, "out.txt");
    await publishFileAtomically(target, "Previous complete output");
    await expect(
      publishFileAtomically(target, "X".repeat(100), { ops: failsHalfwayThroughWrite }),
    ).rejects.toThrow();
    expect(await listDir()).toEqual(["out.txt"]);
    expect(await readFile(target, "utf8")).toBe("Previous complete output");
  });

  it("keeps the previous file when the temp file cannot be created", async () => {
    const target = join(dir, "out.txt");
    await publishFileAtomically(target, "Previous complete output");
    const ops: PublishFileOps = {
      ...defaultPublishFileOps,
      open: async () => {
        throw new Error("Cannot create temporary file");
      },
    };
    await expect(publishFileAtomically(target, "new", { ops })).rejects.toThrow(
      "Cannot create temporary file",
    );
    expect(await listDir()).toEqual(["out.txt"]);
    expect(await readFile(target, "utf8")).toBe("Previous complete output");
  });

  it("never removes another writer's temp file on a name collision", async () => {
    const target = join(dir, "out.txt");
    await publishFileAtomically(target, "Previous complete output");
    const othersTemp = join(dir, ".out.txt.collision.tmp");
    await writeFile(othersTemp, "Other writer's pending output");

    const error = await publishFileAtomically(target, "mine", {
      randomSuffix: () => "collision",
    }).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: "EEXIST" });
    expect(await listDir()).toEqual([".out.txt.collision.tmp", "out.txt"]);
    expect(await readFile(othersTemp, "utf8")).toBe("Other writer's pending output");
    expect(await readFile(target, "utf8")).toBe("Previous complete output");
  });

  it("removes its own temp file and keeps the target when the rename fails", async () => {
    const target = join(dir, "out.txt");
    await publishFileAtomically(target, "Previous complete output");
    const ops: PublishFileOps = {
      ...defaultPublishFileOps,
      rename: async () => {
        throw new Error("Publication failed");
      },
    };
    await expect(publishFileAtomically(target, "new", { ops })).rejects.toThrow(
      "Publication failed",
    );
    expect(await listDir()).toEqual(["out.txt"]);
    expect(await readFile(target, "utf8")).toBe("Previous complete output");
  });

  for (const secondFails of [false, true]) {
    it(`concurrent writers use separate temp files (second publish fails: ${secondFails})`, async () => {
      const target = join(dir, "out.txt");
      let releaseFirst: () => void = () => undefined;
      const firstReleased = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      let firstAtRename: () => void = () => undefined;
      const firstReady = new Promise<void>((resolve) => {
        firstAtRename = resolve;
      });
      let renames = 0;
      const ops: PublishFileOps = {
        ...defaultPublishFileOps,
        async rename(from, to) {
          renames += 1;
          if (renames === 1) {
            // The first writer has closed its temp file but not yet published it.
            firstAtRename();
            await firstReleased;
          } else if (secondFails) {
            throw new Error("Publication failed");
          }
          await defaultPublishFileOps.rename(from, to);
        },
      };

      const first = publishFileAtomically(target, "A".repeat(1000), { ops });
      await firstReady;
      const second = publishFileAtomically(target, "B".repeat(200), { ops }).then(
        () => "published",
        () => "failed",
      );
      const secondOutcome = await second;
      // The first writer's temp file survived whatever the second writer did.
      expect((await listDir()).filter((name) => name.endsWith(".tmp"))).toHaveLength(1);
      releaseFirst();
      await first;

      expect(secondOutcome).toBe(secondFails ? "failed" : "published");
      expect(await listDir()).toEqual(["out.txt"]);
      // The last rename wins, and whichever it is, the file is whole.
      expect(await readFile(target, "utf8")).toBe("A".repeat(1000));
    });
  }

  it("creates the published file with the umask applied, also when replacing", async () => {
    // umask is process-global, so it is set only in a child process.
    const script = `
      import { chmod, stat } from "node:fs/promises";
      import { join } from "node:path";
      import { publishFileAtomically } from "./src/core/atomic-file.ts";
      const results = [];
      for (const mask of [0o022, 0o002, 0o077]) {
        process.umask(mask);
        const target = join(process.argv[1], "mode-" + mask);
        await publishFileAtomically(target, "Complete output");
        const initial = (await stat(target)).mode & 0o777;
        await chmod(target, 0o600);
        await publishFileAtomically(target, "Complete output");
        results.push([mask, initial, (await stat(target)).mode & 0o777]);
      }
      console.log(JSON.stringify(results));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script, dir],
      { cwd: process.cwd() },
    );
    const results: Array<[number, number, number]> = JSON.parse(stdout);
    expect(results).toHaveLength(3);
    for (const [mask, initial, replaced] of results) {
      expect([initial, replaced]).toEqual([0o666 & ~mask, 0o666 & ~mask]);
    }
  });
});
