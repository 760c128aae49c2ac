import { isAbsolute, join, relative, sep } from "node:path";
import { PathEscapeError, ValidationError } from "../../core/errors.js";

/** One virtual folder of a sandbox and the host folder behind it. */
export interface VirtualMount {
  /** Absolute, normalized, e.g. `/mnt/user-data/workspace`. */
  virtualPath: string;
  /** Absolute host folder. */
  hostPath: string;
  readOnly: boolean;
  /** Other spellings of `hostPath` (its realpath) that may show up in output to be masked. */
  hostAliases?: string[];
}

export interface ResolvedPath {
  mount: VirtualMount;
  /** Host path (not yet realpath-checked: `MountedFiles` does that). */
  hostPath: string;
  /** Normalized virtual path. */
  virtualPath: string;
  /** Segments below the mount. */
  segments: string[];
}

/**
 * The virtual → host mapping of one sandbox, longest prefix first and matched on whole segments
 * (so `/mnt/user-dataX` is not under `/mnt/user-data`). Any `..` segment or NUL is refused
 * outright: such paths are never legitimate input, even when they would land back inside.
 */
export class MountTable {
  readonly mounts: readonly VirtualMount[];
  private readonly maskRules: Array<{ host: string; virtual: string }>;

  constructor(mounts: VirtualMount[]) {
    for (const mount of mounts) {
      if (normalizeVirtual(mount.virtualPath) !== mount.virtualPath) {
        throw new ValidationError(
          `Mount path ${mount.virtualPath} must be absolute and normalized.`,
        );
      }
      if (!isAbsolute(mount.hostPath)) {
        throw new ValidationError(`Mount source ${mount.hostPath} must be an absolute path.`);
      }
    }
    this.mounts = [...mounts].sort((a, b) => b.virtualPath.length - a.virtualPath.length);
    this.maskRules = this.mounts
      .flatMap((mount) =>
        [mount.hostPath, ...(mount.hostAliases ?? [])].map((host) => ({
          host: stripTrailingSep(host),
          virtual: mount.virtualPath,
        })),
      )
      .sort((a, b) => b.host.length - a.host.length);
  }

  /** Maps a virtual path; `PathEscapeError` when it is outside every mount or uses `..`. */
  resolve(virtualPath: string): ResolvedPath {
    const normalized = normalizeVirtual(virtualPath);
    if (normalized === null) throw new PathEscapeError(virtualPath);
    for (const mount of this.mounts) {
      const rest = segmentsBelow(mount.virtualPath, normalized);
      if (rest === null) continue;
      return {
        mount,
        hostPath: rest.length === 0 ? mount.hostPath : join(mount.hostPath, ...rest),
        virtualPath: normalized,
        segments: rest,
      };
    }
    throw new PathEscapeError(virtualPath);
  }

  /** A host path inside some mount → its virtual path; null when it is in none. */
  toVirtual(hostPath: string): string | null {
    for (const rule of this.maskRules) {
      const rel = relative(rule.host, hostPath);
      if (rel === "") return rule.virtual;
      if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
      return `${rule.virtual}/${rel.split(sep).join("/")}`;
    }
    return null;
  }

  /** Every host folder spelling in `text` replaced by its virtual path (longest first). */
  maskHostPaths(text: string): string {
    let masked = text;
    for (const rule of this.maskRules) {
      if (rule.host === "" || rule.host === "/") continue;
      masked = masked.replace(boundedPrefix(rule.host), rule.virtual);
    }
    return masked;
  }

  /** Every virtual folder in `command` replaced by its host folder (the local provider's view). */
  rewriteVirtualPaths(command: string): string {
    let rewritten = command;
    for (const mount of this.mounts) {
      rewritten = rewritten.replace(boundedPrefix(mount.virtualPath), mount.hostPath);
    }
    return rewritten;
  }
}

/** `/a//b/./c/` → `/a/b/c`; null for relative paths, `..` segments and NUL bytes. */
export function normalizeVirtual(path: string): string | null {
  if (!path.startsWith("/") || path.includes("\0")) return null;
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.some((segment) => segment === ".." || segment.split("\\").includes(".."))) {
    return null;
  }
  return `/${segments.join("/")}`;
}

function segmentsBelow(prefix: string, path: string): string[] | null {
  if (path === prefix) return [];
  if (prefix === "/") return path.split("/").filter(Boolean);
  if (!path.startsWith(`${prefix}/`)) return null;
  return path.slice(prefix.length + 1).split("/");
}

function stripTrailingSep(path: string): string {
  return path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path;
}

/** Matches `prefix` only where a whole path segment ends (end, `/`, or a non-name character). */
function boundedPrefix(prefix: string): RegExp {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`${escaped}(?=$|/|[^A-Za-z0-9_.-])`, "g");
}
