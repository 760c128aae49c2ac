import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";
import { VIRTUAL_SKILLS } from "../files/thread-mounts.js";

/** Where a thread's own skill policy projection lives, when it has one. */
export function threadSkillsViewDir(paths: FawnPaths, scope: ThreadScope): string {
  return join(paths.threadDir(scope), "skills_view");
}

export interface SandboxIdPolicy {
  /** The thread has its own skills view: its sandbox must not be shared with the default one. */
  skillsView: boolean;
  /** Where skills appear inside the sandbox (part of the policy-scoped id). */
  skillsContainerPath?: string;
}

/**
 * The sandbox id of a thread, the same in every process (so peers find the same container):
 * the first 16 hex of sha256("<user>:<thread>"), or — when the thread has its own skills view —
 * a policy-scoped hash, so a sandbox built for one skills policy is never reused for another.
 * Pure: the caller finds out about the skills view (`hasSkillsView`, async).
 */
export function deriveSandboxId(scope: ThreadScope, policy: SandboxIdPolicy): string {
  const material = policy.skillsView
    ? [
        "agent-skills-v2",
        scope.userId,
        scope.threadId,
        normalizeRoot(policy.skillsContainerPath ?? VIRTUAL_SKILLS),
      ].join("\0")
    : `${scope.userId}:${scope.threadId}`;
  return createHash("sha256").update(material).digest("hex").slice(0, 16);
}

export async function hasSkillsView(paths: FawnPaths, scope: ThreadScope): Promise<boolean> {
  const info = await stat(threadSkillsViewDir(paths, scope)).catch(() => null);
  return info?.isDirectory() ?? false;
}

/** `deriveSandboxId` with the skills view looked up on disk (async stat). */
export async function sandboxIdForThread(paths: FawnPaths, scope: ThreadScope): Promise<string> {
  return deriveSandboxId(scope, { skillsView: await hasSkillsView(paths, scope) });
}

function normalizeRoot(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}
