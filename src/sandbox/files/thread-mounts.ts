import { realpath } from "node:fs/promises";
import { ConfigError } from "../../core/errors.js";
import { type ThreadPaths, VIRTUAL_USER_DATA } from "../../core/paths.js";
import { normalizeVirtual, type VirtualMount } from "./mount-table.js";

export const VIRTUAL_WORKSPACE = `${VIRTUAL_USER_DATA}/workspace`;
export const VIRTUAL_UPLOADS = `${VIRTUAL_USER_DATA}/uploads`;
export const VIRTUAL_OUTPUTS = `${VIRTUAL_USER_DATA}/outputs`;
export const VIRTUAL_SKILLS = "/mnt/skills";

const RESERVED_PREFIXES = [VIRTUAL_USER_DATA, VIRTUAL_SKILLS];

/** A `sandbox.mounts` entry. */
export interface ExtraMount {
  hostPath: string;
  containerPath: string;
  readOnly: boolean;
}

export interface ThreadMountOptions {
  /** Host folder shown read-only at `/mnt/skills`; null or undefined: no skills mount. */
  skillsDir?: string | null;
  extraMounts?: readonly ExtraMount[];
}

/**
 * The mounts every provider gives a thread: workspace and outputs writable, uploads read-only
 * (the gateway writes them, the agent reads them), `/mnt/user-data` itself read-only (it only
 * holds those three), skills read-only, plus configured extra mounts.
 */
export function threadMounts(paths: ThreadPaths, options: ThreadMountOptions = {}): VirtualMount[] {
  const mounts: VirtualMount[] = [
    { virtualPath: VIRTUAL_USER_DATA, hostPath: paths.userDataDir, readOnly: true },
    { virtualPath: VIRTUAL_WORKSPACE, hostPath: paths.workspaceDir, readOnly: false },
    { virtualPath: VIRTUAL_UPLOADS, hostPath: paths.uploadsDir, readOnly: true },
    { virtualPath: VIRTUAL_OUTPUTS, hostPath: paths.outputsDir, readOnly: false },
  ];
  if (options.skillsDir) {
    mounts.push({ virtualPath: VIRTUAL_SKILLS, hostPath: options.skillsDir, readOnly: true });
  }
  for (const extra of options.extraMounts ?? []) mounts.push(extraMount(extra));
  return mounts;
}

function extraMount(extra: ExtraMount): VirtualMount {
  const virtualPath = normalizeVirtual(extra.containerPath);
  const overlapsReserved = (reserved: string): boolean =>
    virtualPath !== null &&
    (virtualPath === reserved ||
      virtualPath.startsWith(`${reserved}/`) ||
      reserved.startsWith(`${virtualPath}/`));
  if (virtualPath === null || virtualPath === "/" || RESERVED_PREFIXES.some(overlapsReserved)) {
    throw new ConfigError(
      `sandbox.mounts: container_path ${extra.containerPath} must be an absolute path that does not overlap ${RESERVED_PREFIXES.join(" or ")}.`,
    );
  }
  return { virtualPath, hostPath: extra.hostPath, readOnly: extra.readOnly };
}

/** Adds each mount's realpath as an alias, so output quoting either spelling gets masked. */
export async function withHostAliases(mounts: VirtualMount[]): Promise<VirtualMount[]> {
  return Promise.all(
    mounts.map(async (mount) => {
      const real = await realpath(mount.hostPath).catch(() => null);
      return real !== null && real !== mount.hostPath ? { ...mount, hostAliases: [real] } : mount;
    }),
  );
}
