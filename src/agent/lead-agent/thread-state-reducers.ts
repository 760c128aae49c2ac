/**
 * Reducers of the thread state. Each one states how parallel or repeated
 * writes combine, so tools and middlewares can write without reading first.
 */

export interface SandboxState {
  sandbox_id?: string | null;
}

/** null keeps the old value; the same id is idempotent; a different id is an isolation bug. */
export function mergeSandbox(
  current: SandboxState | null,
  update: SandboxState | null | undefined,
): SandboxState | null {
  if (!update) return current;
  const currentId = current?.sandbox_id ?? null;
  const newId = update.sandbox_id ?? null;
  if (currentId !== null && newId !== null && currentId !== newId) {
    throw new Error(
      `Sandbox conflict: the thread holds sandbox ${currentId} and an update set ${newId}; one thread must never use two sandboxes.`,
    );
  }
  return newId === null ? current : update;
}

/** Concatenation that keeps the first occurrence of each path, in order. */
export function mergeArtifacts(current: string[], update: string[] | null | undefined): string[] {
  if (!update || update.length === 0) return current;
  return [...new Set([...current, ...update])];
}

/** A new non-null value replaces the old one; an empty list is an explicit clear. */
export function replaceUnlessNull<T>(current: T | null, update: T | null | undefined): T | null {
  return update === null || update === undefined ? current : update;
}

/** Last write wins, including null (an explicit reset). */
export function lastWrite<T>(current: T, update: T | undefined): T {
  return update === undefined ? current : update;
}

export interface ViewedImage {
  mime_type: string;
  size: number;
  actual_path: string;
}

/** Merged by path; an empty map clears every viewed image. */
export function mergeViewedImages(
  current: Record<string, ViewedImage>,
  update: Record<string, ViewedImage> | null | undefined,
): Record<string, ViewedImage> {
  if (!update) return current;
  if (Object.keys(update).length === 0) return {};
  return { ...current, ...update };
}

export interface PromotedTools {
  catalog_hash: string;
  names: string[];
}

/** Same catalog → union of names; a new catalog replaces the old promotions. */
export function mergePromoted(
  current: PromotedTools | null,
  update: PromotedTools | null | undefined,
): PromotedTools | null {
  if (!update) return current;
  if (!current || current.catalog_hash !== update.catalog_hash) return update;
  return {
    catalog_hash: current.catalog_hash,
    names: [...new Set([...current.names, ...update.names])],
  };
}

export interface DelegationEntry {
  id: string;
  run_id?: string;
  description: string;
  subagent_type: string;
  status: string;
  result_brief?: string;
  result_sha256?: string;
  result_ref?: string;
  stop_reason?: string;
  created_at: string;
}

const ACTIVE_DELEGATION_STATUSES = new Set(["pending", "running"]);
const MAX_DELEGATIONS = 50;

/** Upsert by id in first-seen order; a finished delegation never goes back to running. */
export function mergeDelegations(
  current: DelegationEntry[],
  update: DelegationEntry[] | null | undefined,
): DelegationEntry[] {
  if (!update || update.length === 0) return current;
  const merged = new Map(current.map((entry) => [entry.id, entry]));
  for (const entry of update) {
    const previous = merged.get(entry.id);
    const downgrade =
      previous !== undefined &&
      !ACTIVE_DELEGATION_STATUSES.has(previous.status) &&
      ACTIVE_DELEGATION_STATUSES.has(entry.status);
    merged.set(
      entry.id,
      downgrade ? { ...previous, ...entry, status: previous.status } : { ...previous, ...entry },
    );
  }
  return [...merged.values()].slice(-MAX_DELEGATIONS);
}

export interface SkillContextEntry {
  name: string;
  path: string;
  description: string;
  loaded_at: string;
}

const MAX_SKILL_CONTEXT = 8;

/** Deduplicated by path; re-reading a skill moves it to the end; the last 8 are kept. */
export function mergeSkillContext(
  current: SkillContextEntry[],
  update: SkillContextEntry[] | null | undefined,
): SkillContextEntry[] {
  if (!update || update.length === 0) return current;
  const paths = new Set(update.map((entry) => entry.path));
  const kept = current.filter((entry) => !paths.has(entry.path));
  const latest = new Map(update.map((entry) => [entry.path, entry]));
  return [...kept, ...latest.values()].slice(-MAX_SKILL_CONTEXT);
}
