import { stat } from "node:fs/promises";
import type { FawnPaths, ThreadPaths, ThreadScope } from "../../core/paths.js";
import { type ExtraMount, threadMounts, withHostAliases } from "../files/thread-mounts.js";
import type { SandboxSpec } from "./sandbox-backend.js";
import { threadSkillsViewDir } from "./sandbox-id.js";

export interface SpecOptions {
  /** Host folder shown at `/mnt/skills` when it exists. */
  skillsDir?: string | null;
  extraMounts?: readonly ExtraMount[];
}

/**
 * What a backend needs to build a thread's sandbox. A thread with its own skills view sees that
 * view at `/mnt/skills` (its id is policy-scoped to match); otherwise the shared skills folder,
 * when there is one.
 */
export async function buildSandboxSpec(
  paths: FawnPaths,
  scope: ThreadScope,
  sandboxId: string,
  threadPaths: ThreadPaths,
  options: SpecOptions,
): Promise<SandboxSpec> {
  const skillsView = threadSkillsViewDir(paths, scope);
  const skillsDir = (await isDirectory(skillsView))
    ? skillsView
    : (await isDirectory(options.skillsDir))
      ? options.skillsDir
      : null;
  const mounts = await withHostAliases(
    threadMounts(threadPaths, { skillsDir, extraMounts: options.extraMounts }),
  );
  return { sandboxId, scope, threadPaths, mounts };
}

async function isDirectory(path: string | null | undefined): Promise<boolean> {
  if (!path) return false;
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}
