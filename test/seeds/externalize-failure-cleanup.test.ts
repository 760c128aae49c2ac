/**
 * Seed 000 (`test_externalize_failure_cleanup.py`, indexed in `test/seeds/README.md`) ported: a
 * failed externalization must not leave a half-written output behind. Each test keeps the seed
 * test's name (with its parametrization ids); faults are injected through the externalizer's ops
 * seam instead of monkeypatching `open` / `os.replace` / `uuid`. The budget's own unit tests are
 * in `test/agent/tool-output-budget.test.ts`.
 */
import { execFile } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  type ExternalizeTarget,
  externalizeToolOutput,
} from "../../src/agent/tools/output-budget/externalize-tool-output.js";
import {
  defaultPublishFileOps,
  type PublishFileOps,
  type PublishHandle,
} from "../../src/core/atomic-file.js";
import { bashOutputTarget, filesUnder, tempFolderPerTest } from "../helpers/externalize-fixture.js";
import { Latch, within } from "../helpers/latch.js";

const temp = tempFolderPerTest("fawn-externalize-");

function target(toolCallId: string): ExternalizeTarget {
  return bashOutputTarget(temp.path, toolCallId);
}

function fileNameOf(virtualPath: string): string {
  return virtualPath.slice(virtualPath.lastIndexOf("/") + 1);
}

/** Like a full disk: half the bytes reach the file, then the write fails (seed: _FailsAfterHalfTheWrite). */
const failsAfterHalfTheWrite: PublishFileOps = {
  ...defaultPublishFileOps,
  async open(path, flags, mode) {
    const real = await defaultPublishFileOps.open(path, flags, mode);
    const handle: PublishHandle = {
      async writeFile(data) {
        await real.writeFile(typeof data === "string" ? data.slice(0, data.length / 2) : data);
        throw Object.assign(new Error("No space left on device"), { code: "ENOSPC", errno: 28 });
      },
      sync: () => real.sync(),
      close: () => real.close(),
    };
    return handle;
  },
};

describe("seed 000: externalization failure cleanup", () => {
  it("test_failed_write_leaves_no_file_behind", async () => {
    const result = await externalizeToolOutput("X".repeat(100), target("call_1"), {
      ops: failsAfterHalfTheWrite,
    });

    expect(result).toBeNull();
    expect(await filesUnder(temp.path)).toEqual([]);
  });

  it("test_successful_write_publishes_the_whole_content", async () => {
    const result = await externalizeToolOutput("Y".repeat(100), target("call_2"));

    expect(result).not.toBeNull();
    const written = await filesUnder(temp.path);
    expect(written).toHaveLength(1);
    expect(await readFile(written[0] ?? "", "utf8")).toBe("Y".repeat(100));
  });

  const contents = [
    ["identical-output", "A".repeat(1000)],
    ["different-output", "B".repeat(200)],
  ] as const;
  for (const [contentId, secondContent] of contents) {
    for (const secondPublishFails of [false, true]) {
      const name = `test_concurrent_externalizations_do_not_share_temporary_files[${contentId}-${secondPublishFails ? "True" : "False"}]`;
      it(name, async () => {
        const firstReady = new Latch();
        const releaseFirst = new Latch();
        const ops: PublishFileOps = {
          ...defaultPublishFileOps,
          async rename(source, destination) {
            if (!firstReady.isSet) {
              // The first writer has closed its file but has not published it.
              firstReady.set();
              await within(releaseFirst.wait(), 10_000, "first writer never released");
            } else if (secondPublishFails) {
              throw new Error("Publication failed");
            }
            await defaultPublishFileOps.rename(source, destination);
          },
        };
        const kwargs = target("same_call");
        const first = externalizeToolOutput("A".repeat(1000), kwargs, { ops });
        let secondPath: string | null;
        try {
          await within(firstReady.wait(), 10_000, "first writer never reached publication");
          secondPath = await externalizeToolOutput(secondContent, kwargs, { ops });
        } finally {
          // Always release the first writer, including when the second call fails.
          releaseFirst.set();
        }
        const firstPath = await within(first, 10_000, "first writer did not finish");

        expect(firstPath).not.toBeNull();
        if (secondPublishFails) {
          expect(secondPath).toBeNull();
        } else {
          expect(secondPath).not.toBeNull();
          expect(firstPath === secondPath).toBe(secondContent === "A".repeat(1000));
        }
        const written = await filesUnder(temp.path);
        expect(written).toHaveLength(secondPath !== null && secondPath !== firstPath ? 2 : 1);
        // Every advertised path retains its complete bytes, with no leftover temps.
        const storage = join(temp.path, "sub");
        expect(await readFile(join(storage, fileNameOf(firstPath ?? "")), "utf8")).toBe(
          "A".repeat(1000),
        );
        if (secondPath !== null) {
          expect(await readFile(join(storage, fileNameOf(secondPath)), "utf8")).toBe(secondContent);
        }
      });
    }
  }

  it("test_temporary_file_creation_failure_preserves_existing_output", async () => {
    const storageDir = join(temp.path, "sub");
    const content = "Previous complete output";
    const path = await externalizeToolOutput(content, target("call_1"));
    expect(path).not.toBeNull();
    const published = join(storageDir, fileNameOf(path ?? ""));

    const failToCreate: PublishFileOps = {
      ...defaultPublishFileOps,
      open: async () => {
        throw new Error("Cannot create temporary file");
      },
    };
    const result = await externalizeToolOutput(content, target("call_1"), { ops: failToCreate });

    expect(result).toBeNull();
    expect(await readdir(storageDir)).toEqual([fileNameOf(published)]);
    expect(await readFile(published, "utf8")).toBe("Previous complete output");
  });

  const masks = [
    ["other-readable", 0o022],
    ["group-writable", 0o002],
    ["private", 0o077],
  ] as const;
  for (const [maskId, mask] of masks) {
    it(`test_published_output_respects_umask[${maskId}]`, async () => {
      // Set umask only in a child; it is process-global and must not race other tests.
      const script = `
        import { chmod, readFile, stat } from "node:fs/promises";
        import { join } from "node:path";
        import { externalizeToolOutput } from "./src/agent/tools/output-budget/externalize-tool-output.ts";
        process.umask(Number(process.argv[2]));
        const kwargs = { toolName: "bash", toolCallId: "mode", outputsPath: process.argv[1], storageSubdir: "sub" };
        const content = "Complete output";
        const firstPath = await externalizeToolOutput(content, kwargs);
        if (firstPath === null) throw new Error("first externalization failed");
        const published = join(process.argv[1], "sub", firstPath.slice(firstPath.lastIndexOf("/") + 1));
        const initialMode = (await stat(published)).mode & 0o777;
        await chmod(published, 0o600);
        if ((await externalizeToolOutput(content, kwargs)) !== firstPath) throw new Error("path changed");
        console.log(JSON.stringify({
          modes: [initialMode, (await stat(published)).mode & 0o777],
          content: await readFile(published, "utf8"),
        }));
      `;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script, temp.path, String(mask)],
        { cwd: process.cwd(), timeout: 30_000 },
      );
      const observed: { modes: number[]; content: string } = JSON.parse(stdout);
      expect(observed.content).toBe("Complete output");
      expect(observed.modes).toEqual([0o666 & ~mask, 0o666 & ~mask]);
    });
  }

  it("test_exclusive_creation_collision_preserves_other_writers_temp", async () => {
    const storageDir = join(temp.path, "sub");
    const content = "Previous complete output";
    const path = await externalizeToolOutput(content, target("call_1"));
    expect(path).not.toBeNull();
    const published = fileNameOf(path ?? "");
    // The temp name another writer would hold if its random part were "collision"
    // (publishFileAtomically names temps `.<final name>.<random>.tmp`).
    const ownedByOtherWriter = `.${published}.collision.tmp`;
    await writeFile(join(storageDir, ownedByOtherWriter), "Other writer's pending output");

    const result = await externalizeToolOutput(content, target("call_1"), {
      randomSuffix: () => "collision",
    });

    expect(result).toBeNull();
    expect((await readdir(storageDir)).sort()).toEqual([ownedByOtherWriter, published].sort());
    expect(await readFile(join(storageDir, ownedByOtherWriter), "utf8")).toBe(
      "Other writer's pending output",
    );
    expect(await readFile(join(storageDir, published), "utf8")).toBe("Previous complete output");
  });
});
