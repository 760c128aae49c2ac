import { relative, sep } from "node:path";
import { AgentRunError } from "../../core/errors.js";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";

/**
 * Where a thread's `/mnt/user-data` lies on the host for an artifact operation. A provider that
 * mounts the thread folders (every Fawn provider today) answers the thread's own folder; one that
 * does not hands files over through a sandbox lease whose `artifactRoot` mirrors `/mnt/user-data`.
 */

/** What the artifact code asks of the sandbox provider. */
export interface ArtifactProvider {
  readonly usesThreadDataMounts: boolean;
}

/** A sandbox held for one artifact operation (or one run); `artifactRoot` null: cannot hand over. */
export interface ArtifactSandbox {
  artifactRoot: string | null;
}

/** A hold on a thread's sandbox: `denied` when the caller may not use it. Release exactly once. */
export interface ArtifactLease {
  denied: boolean;
  sandbox: ArtifactSandbox | null;
  release(): Promise<void>;
}

export type AcquireArtifactLease = (scope: ThreadScope) => Promise<ArtifactLease>;

/** The host folder mirroring `/mnt/user-data`: `base/<segments…>`, checked link-free below `base`. */
export interface UserDataRoot {
  base: string;
  segments: readonly string[];
}

/** A root plus what to release when the operation using it is over. */
export interface HeldRoot {
  root: UserDataRoot;
  release(): Promise<void>;
}

const NOTHING_HELD = async (): Promise<void> => undefined;

/** The thread's own folder under FAWN_HOME (mounted providers). */
export function localRoot(paths: FawnPaths, scope: ThreadScope): UserDataRoot {
  const rel = relative(paths.home, paths.threadPaths(scope).userDataDir);
  return { base: paths.home, segments: rel.split(sep) };
}

/**
 * Hold the thread's root: locally nothing to hold; otherwise a lease, refused (403) when denied,
 * 503 without a sandbox, 422 when the sandbox cannot expose an artifact root. A refused lease is
 * released before the error is thrown.
 */
export async function holdRoot(
  provider: ArtifactProvider,
  acquire: AcquireArtifactLease,
  paths: FawnPaths,
  scope: ThreadScope,
): Promise<HeldRoot> {
  if (provider.usesThreadDataMounts) {
    return { root: localRoot(paths, scope), release: NOTHING_HELD };
  }
  const lease = await acquire(scope);
  const release = once(() => lease.release());
  const root = lease.sandbox?.artifactRoot ?? null;
  if (!lease.denied && root !== null) return { root: { base: root, segments: [] }, release };
  await release();
  if (lease.denied) {
    throw new AgentRunError(403, "This user may not use the thread's sandbox to hand files over");
  }
  if (lease.sandbox === null) {
    throw new AgentRunError(503, "The thread's sandbox is unavailable; retry shortly");
  }
  throw new AgentRunError(
    422,
    "The thread's sandbox cannot hand files over (it exposes no artifact root)",
  );
}

/** Run `work` over the thread's root, releasing its hold exactly once afterwards. */
export async function withRoot<T>(
  held: Promise<HeldRoot>,
  work: (root: UserDataRoot) => Promise<T>,
): Promise<T> {
  const { root, release } = await held;
  try {
    return await work(root);
  } finally {
    await release();
  }
}

function once(release: () => Promise<void>): () => Promise<void> {
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    await release();
  };
}

/** A lease source for hosts without non-mounted sandboxes: every lease exposes no root. */
export const noArtifactLeases: AcquireArtifactLease = async () => ({
  denied: false,
  sandbox: { artifactRoot: null },
  release: NOTHING_HELD,
});
