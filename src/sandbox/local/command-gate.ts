import { SandboxCommandRefusedError } from "../sandbox-errors.js";

/** Host folders a local command may name besides the sandbox's own virtual folders. */
const ALWAYS_ALLOWED = ["/bin/", "/usr/bin/", "/usr/sbin/", "/sbin/", "/dev/"];

/** An absolute path starting a shell word (after whitespace, quote, `=`, redirection, `(`…). */
const ABSOLUTE_PATH = /(?<=^|[\s'"`=<>|;&(])\/[^\s'"`|;&<>()]*/g;
const PARENT_SEGMENT = /(?:^|[\s'"`=/<>|;&(])\.\.(?=$|[/\s'"`|;&<>)])/;

/**
 * The local provider's best-effort command check. It is NOT a security
 * boundary — host bash is trusted-machine only — but it keeps an agent from wandering the host
 * by accident: no `file://` URLs, no `..` segments, and absolute paths only under the sandbox's
 * virtual folders (or a few system binaries folders and /dev).
 */
export function assertSafeLocalCommand(command: string, virtualRoots: readonly string[]): void {
  if (/file:\/\//i.test(command)) {
    throw new SandboxCommandRefusedError(
      "file:// URLs are not allowed in commands. Use paths under /mnt/user-data",
    );
  }
  if (PARENT_SEGMENT.test(command)) {
    throw new SandboxCommandRefusedError(
      'Path segments ".." are not allowed in commands. Use paths under /mnt/user-data',
    );
  }
  const unsafe = new Set<string>();
  for (const match of command.matchAll(ABSOLUTE_PATH)) {
    const path = match[0];
    // `//host/x` after `https:` is a URL, not a host path.
    if (path.startsWith("//") || isUnder(path, virtualRoots)) continue;
    if (ALWAYS_ALLOWED.some((prefix) => path.startsWith(prefix) || `${path}/` === prefix)) continue;
    unsafe.add(path);
  }
  if (unsafe.size > 0) {
    throw new SandboxCommandRefusedError(
      `Unsafe absolute paths in command: ${[...unsafe].join(", ")}. Use paths under /mnt/user-data`,
    );
  }
}

function isUnder(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(`${root}/`));
}
