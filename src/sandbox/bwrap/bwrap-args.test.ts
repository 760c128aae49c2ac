import { describe, expect, it } from "vitest";
import { buildBwrapArgs, DEFAULT_RESOURCE_LIMITS } from "./bwrap-args.js";

const base = {
  system: [
    { kind: "ro-bind" as const, path: "/usr", optional: false },
    { kind: "symlink" as const, path: "/bin", target: "usr/bin" },
    { kind: "ro-bind" as const, path: "/etc/passwd", optional: true },
  ],
  mounts: [
    { virtualPath: "/mnt/user-data/workspace", hostPath: "/h/ws", readOnly: false },
    { virtualPath: "/mnt/user-data", hostPath: "/h/ud", readOnly: true },
    { virtualPath: "/mnt/user-data/uploads", hostPath: "/h/up", readOnly: true },
  ],
  cwd: "/mnt/user-data/workspace",
  allowNetwork: false,
  limits: DEFAULT_RESOURCE_LIMITS,
  command: "echo 'hi' && rm -rf \"$HOME\"",
};

describe("buildBwrapArgs", () => {
  it("unshares everything, binds the system read-only and mounts parents before children", () => {
    const args = buildBwrapArgs(base);
    const joined = args.join(" ");
    expect(args.slice(0, 3)).toEqual(["--unshare-all", "--die-with-parent", "--new-session"]);
    expect(args).not.toContain("--share-net");
    expect(joined).toContain(
      "--ro-bind /usr /usr --symlink usr/bin /bin --ro-bind-try /etc/passwd /etc/passwd",
    );
    expect(joined).toContain(
      "--ro-bind /h/ud /mnt/user-data --ro-bind /h/up /mnt/user-data/uploads --bind /h/ws /mnt/user-data/workspace",
    );
    expect(joined).toContain("--remount-ro / --chdir /mnt/user-data/workspace --");
  });

  it("passes the command as an argument, never spliced into the limits script", () => {
    const args = buildBwrapArgs(base);
    expect(args.at(-1)).toBe(base.command);
    expect(args.at(-3)).toMatch(/^ulimit -S -H -c 0 && .* && exec \/bin\/bash -c "\$1"$/);
    expect(args.at(-3)).not.toContain("echo");
  });

  it("shares the network only when asked", () => {
    expect(buildBwrapArgs({ ...base, allowNetwork: true })).toContain("--share-net");
  });
});
