import { describe, expect, it } from "vitest";
import { PathEscapeError } from "../../core/errors.js";
import { MountTable, normalizeVirtual } from "./mount-table.js";

const table = new MountTable([
  { virtualPath: "/mnt/user-data", hostPath: "/h/ud", readOnly: true },
  {
    virtualPath: "/mnt/user-data/workspace",
    hostPath: "/h/ud/workspace",
    readOnly: false,
    hostAliases: ["/real/ws"],
  },
  { virtualPath: "/mnt/skills", hostPath: "/h/skills", readOnly: true },
]);

describe("MountTable", () => {
  it("maps by longest prefix on whole segments", () => {
    const resolved = table.resolve("/mnt/user-data/workspace/a//b/./c.txt");
    expect(resolved.hostPath).toBe("/h/ud/workspace/a/b/c.txt");
    expect(resolved.virtualPath).toBe("/mnt/user-data/workspace/a/b/c.txt");
    expect(resolved.mount.readOnly).toBe(false);
    expect(table.resolve("/mnt/user-data/uploads/x").mount.virtualPath).toBe("/mnt/user-data");
    expect(() => table.resolve("/mnt/user-dataX/y")).toThrow(PathEscapeError);
  });

  it("refuses '..', NUL, relative paths and paths outside every mount", () => {
    for (const path of ["/mnt/skills/../user-data", "/mnt/skills/a\0", "mnt/skills", "/etc", "/"]) {
      expect(() => table.resolve(path), path).toThrow(PathEscapeError);
    }
    expect(normalizeVirtual("/a/..")).toBeNull();
  });

  it("masks host paths (and their aliases) as virtual paths, whole segments only", () => {
    expect(table.maskHostPaths("at /h/ud/workspace/x and /real/ws/y, not /h/ud/workspace2")).toBe(
      "at /mnt/user-data/workspace/x and /mnt/user-data/workspace/y, not /mnt/user-data/workspace2",
    );
    expect(table.toVirtual("/h/skills/a/SKILL.md")).toBe("/mnt/skills/a/SKILL.md");
    expect(table.toVirtual("/elsewhere")).toBeNull();
  });

  it("rewrites virtual paths in a command to host paths", () => {
    expect(table.rewriteVirtualPaths("cat /mnt/user-data/workspace/a && ls /mnt/skills")).toBe(
      "cat /h/ud/workspace/a && ls /h/skills",
    );
  });
});
