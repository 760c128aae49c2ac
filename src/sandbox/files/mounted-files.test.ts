import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DeadlineExceededError } from "../../core/errors.js";
import { MountTable } from "./mount-table.js";
import { MountedFiles } from "./mounted-files.js";

describe("MountedFiles", () => {
  let root: string;
  let files: MountedFiles;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "fawn-mounted-files-"));
    await mkdir(join(root, "ws"));
    const table = new MountTable([
      { virtualPath: "/mnt/user-data/workspace", hostPath: join(root, "ws"), readOnly: false },
    ]);
    files = new MountedFiles(table, { grepTimeoutMs: 300 });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("stops a catastrophic regex at its deadline without stalling the event loop", async () => {
    await writeFile(join(root, "ws", "evil.txt"), `${"a".repeat(40)}!\n`);
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 10);
    try {
      const search = files.grep("/mnt/user-data/workspace", "^(a+)+$");
      await expect(search).rejects.toBeInstanceOf(DeadlineExceededError);
    } finally {
      clearInterval(ticker);
    }
    // The loop kept turning while the regex ran in its worker.
    expect(ticks).toBeGreaterThan(0);
  });

  it("keeps an executable file executable when it is rewritten", async () => {
    const path = "/mnt/user-data/workspace/run.sh";
    await files.writeFile(path, "#!/bin/sh\necho one\n");
    const host = join(root, "ws", "run.sh");
    await chmod(host, 0o755);
    await files.replaceInFile(path, "one", "two");
    expect((await stat(host)).mode & 0o111).toBe(0o111);
  });
});
