import { lstat, readlink } from "node:fs/promises";

/** One piece of the host system shown read-only inside the sandbox. */
export type SystemEntry =
  | { kind: "ro-bind"; path: string; optional: boolean }
  | { kind: "symlink"; path: string; target: string };

/** Top-level folders that are either real folders or merged-/usr symlinks, depending on the host. */
const TOP_LEVEL = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * What programs need from /etc to run (dynamic linker cache, alternatives, users and groups by
 * name, time zone, locales, certificates) — never all of /etc: it holds /etc/shadow, host keys and
 * service credentials.
 */
export const ETC_ALLOWLIST = [
  "/etc/alternatives",
  "/etc/bash.bashrc",
  "/etc/ca-certificates",
  "/etc/debian_version",
  "/etc/group",
  "/etc/host.conf",
  "/etc/hosts",
  "/etc/inputrc",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/locale.alias",
  "/etc/localtime",
  "/etc/mime.types",
  "/etc/nsswitch.conf",
  "/etc/os-release",
  "/etc/passwd",
  "/etc/profile",
  "/etc/ssl",
  "/etc/timezone",
];

/**
 * The host system as the sandbox sees it: `/usr` read-only, the top-level library and binary
 * folders as the host has them (symlinks into /usr on merged-/usr systems), and the /etc allowlist.
 */
export async function readSystemLayout(): Promise<SystemEntry[]> {
  const entries: SystemEntry[] = [{ kind: "ro-bind", path: "/usr", optional: false }];
  for (const path of TOP_LEVEL) {
    const info = await lstat(path).catch(() => null);
    if (info === null) continue;
    if (info.isSymbolicLink())
      entries.push({ kind: "symlink", path, target: await readlink(path) });
    else if (info.isDirectory()) entries.push({ kind: "ro-bind", path, optional: true });
  }
  for (const path of ETC_ALLOWLIST) entries.push({ kind: "ro-bind", path, optional: true });
  return entries;
}
