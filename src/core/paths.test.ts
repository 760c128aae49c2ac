import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PathEscapeError, ValidationError } from "./errors.js";
import { FawnPaths, resolveInside, VIRTUAL_USER_DATA } from "./paths.js";

const home = "/srv/fawn";
const paths = new FawnPaths(home);
const scope = { userId: "alice", threadId: "t-1" };
const userData = "/srv/fawn/users/alice/threads/t-1/user-data";

describe("FawnPaths layout", () => {
  it("puts each thread's folders under its user", () => {
    expect(paths.threadPaths(scope)).toEqual({
      threadDir: "/srv/fawn/users/alice/threads/t-1",
      userDataDir: userData,
      workspaceDir: `${userData}/workspace`,
      uploadsDir: `${userData}/uploads`,
      outputsDir: `${userData}/outputs`,
    });
  });

  it("resolves a relative home against the working directory", () => {
    expect(new FawnPaths("rel-home").home).toBe(join(process.cwd(), "rel-home"));
  });

  it("validates ids before they become path segments", () => {
    expect(() => paths.threadDir({ userId: "alice", threadId: "../bob" })).toThrow(ValidationError);
    expect(() => paths.threadDir({ userId: "..", threadId: "t-1" })).toThrow(ValidationError);
    expect(() => paths.userDir("a/b")).toThrow(ValidationError);
    expect(() => paths.userDir("")).toThrow(ValidationError);
    expect(paths.threadDir({ userId: "u", threadId: "6f1c2d0e-8a4b-4c3d-9e2f-0a1b2c3d4e5f" })).toBe(
      "/srv/fawn/users/u/threads/6f1c2d0e-8a4b-4c3d-9e2f-0a1b2c3d4e5f",
    );
  });
});

describe("virtual path mapping", () => {
  it("maps /mnt/user-data paths to the thread's host folders", () => {
    expect(paths.resolveVirtualPath(scope, "/mnt/user-data/outputs/report.md")).toBe(
      `${userData}/outputs/report.md`,
    );
    expect(paths.resolveVirtualPath(scope, "/mnt/user-data")).toBe(userData);
    expect(paths.resolveVirtualPath(scope, "/mnt/user-data/")).toBe(userData);
    expect(paths.resolveVirtualPath(scope, "mnt/user-data/workspace/./a.txt")).toBe(
      `${userData}/workspace/a.txt`,
    );
  });

  it("maps host paths back to virtual paths", () => {
    expect(paths.toVirtualPath(scope, `${userData}/uploads/data.csv`)).toBe(
      "/mnt/user-data/uploads/data.csv",
    );
    expect(paths.toVirtualPath(scope, userData)).toBe(VIRTUAL_USER_DATA);
  });

  it("round-trips", () => {
    const virtual = "/mnt/user-data/workspace/src/main.py";
    expect(paths.toVirtualPath(scope, paths.resolveVirtualPath(scope, virtual))).toBe(virtual);
  });

  it.each([
    ["a parent segment", "/mnt/user-data/../../etc/passwd"],
    ["a parent segment that lands back inside", "/mnt/user-data/workspace/../outputs/x"],
    ["a trailing parent segment", "/mnt/user-data/.."],
    ["a lookalike prefix", "/mnt/user-dataX/secret"],
    ["another mount", "/mnt/skills/public/x"],
    ["a host absolute path", "/etc/passwd"],
    ["a relative path", "workspace/a.txt"],
    ["a parent before the prefix", "/mnt/../mnt/user-data/a"],
    ["a NUL byte", "/mnt/user-data/a\0b"],
  ])("refuses %s", (_label, virtual) => {
    expect(() => paths.resolveVirtualPath(scope, virtual)).toThrow(PathEscapeError);
  });

  it.each([
    ["outside the home", "/etc/passwd"],
    ["another user's thread", "/srv/fawn/users/bob/threads/t-1/user-data/outputs/x"],
    ["another thread", "/srv/fawn/users/alice/threads/t-2/user-data/x"],
    ["a lookalike sibling", `${userData}-evil/x`],
    ["the parent via ..", `${userData}/../thread.json`],
    ["a relative path", "user-data/x"],
  ])("refuses a host path %s", (_label, host) => {
    expect(() => paths.toVirtualPath(scope, host)).toThrow(PathEscapeError);
  });

  it("names the offending path in the error", () => {
    expect(() => paths.resolveVirtualPath(scope, "/mnt/user-data/../x")).toThrow(
      '"/mnt/user-data/../x"',
    );
  });
});

describe("resolveInside", () => {
  it("joins inside the root", () => {
    expect(resolveInside("/root/dir", "a/b.txt")).toBe("/root/dir/a/b.txt");
    expect(resolveInside("/root/dir", "")).toBe("/root/dir");
  });

  it.each(["../x", "a/../../x", "/etc/passwd", "a\0b", "..\\x"])("refuses %j", (rel) => {
    expect(() => resolveInside("/root/dir", rel)).toThrow(PathEscapeError);
  });
});

describe("thread folders on disk", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("creates and deletes a thread's folders", async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-paths-"));
    const onDisk = new FawnPaths(dir);
    const created = await onDisk.ensureThreadDirs(scope);
    await onDisk.ensureThreadDirs(scope);
    for (const folder of [created.workspaceDir, created.uploadsDir, created.outputsDir]) {
      expect((await stat(folder)).isDirectory()).toBe(true);
    }
    await onDisk.deleteThreadDir(scope);
    await expect(stat(created.threadDir)).rejects.toMatchObject({ code: "ENOENT" });
  });
});
