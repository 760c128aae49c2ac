import { AgentRunError, describeError } from "../../core/errors.js";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";
import type { ArtifactReceiptJson, RunInvocation } from "../../ports/run-types.js";
import {
  folderChain,
  readFileIn,
  sha256Hex,
  throwIfAborted,
  writeFileOnce,
} from "./artifact-files.js";
import { checkReceipt, readableLocation, uploadPath } from "./artifact-paths.js";
import {
  type AcquireArtifactLease,
  type ArtifactProvider,
  type HeldRoot,
  holdRoot,
  noArtifactLeases,
  type UserDataRoot,
  withRoot,
} from "./artifact-sandbox.js";

export const ARTIFACT_CONFLICT = "artifact_conflict";
export const ARTIFACT_UNAVAILABLE = "artifact_unavailable";

/** What a run's pre-agent check decided (the runtime's `RunPreparation`). */
export type ImportVerification =
  | { kind: "proceed"; release?: () => Promise<void> }
  | { kind: "refuse"; error: string; stopReason: string };

/** The part of an admitted run the check reads. */
export interface PreparedRun {
  threadId: string;
  userId: string | null;
  kwargs: RunInvocation;
}

export interface ThreadArtifactsDeps {
  paths: FawnPaths;
  /** The sandbox provider agents run in (does it mount the thread folders?). */
  provider: ArtifactProvider;
  /** The uploads name rule: the stored (normalised) name, or a 4xx for a refused one. */
  checkName: (name: string) => string;
  /** Runs `work` as an exclusive `artifact_write` operation on the thread (409 while busy). */
  threadOperation: <T>(scope: ThreadScope, work: () => Promise<T>) => Promise<T>;
  /** Largest file handed over either way (the uploads limit). */
  maxFileBytes: number;
  /** The user a run without one acts for. */
  defaultUserId: string;
}

/**
 * Files handed between threads on behalf of plugins: imports into a thread's uploads with a
 * receipt, reads of a thread's outputs or uploads, and the check that a run's imports are still
 * what was imported before its agent is built. `provider` and `acquireLease` are replaceable seams
 * (a non-mounted sandbox is reached through a lease on its `artifactRoot`), and so is
 * `verifyImports`.
 */
export class ThreadArtifacts {
  /** Which provider decides the path (default: the real one). */
  provider: () => ArtifactProvider;
  /** How a non-mounted sandbox is held for one operation. */
  acquireLease: AcquireArtifactLease = noArtifactLeases;

  constructor(private readonly deps: ThreadArtifactsDeps) {
    this.provider = () => deps.provider;
  }

  /**
   * Write `content` as `filename` into the thread's uploads; the same bytes again: same receipt.
   * An aborted `signal` stops the import at its next step, before the file is linked into place.
   */
  async importArtifact(
    scope: ThreadScope,
    filename: string,
    content: Uint8Array,
    signal?: AbortSignal,
  ): Promise<ArtifactReceiptJson> {
    const name = this.deps.checkName(filename);
    if (content.byteLength > this.deps.maxFileBytes) {
      throw new AgentRunError(413, `Artifact is larger than ${this.deps.maxFileBytes} bytes`);
    }
    throwIfAborted(signal);
    const outcome = await this.deps.threadOperation(scope, () =>
      withRoot(this.hold(scope), async (root) => {
        throwIfAborted(signal);
        const folder = await folderChain(root.base, [...root.segments, "uploads"], true);
        if (folder === null)
          throw new AgentRunError(409, "The thread's uploads folder vanished; retry");
        return writeFileOnce(folder, name, content, this.deps.maxFileBytes, signal);
      }),
    );
    if (outcome === "changed") {
      throw new AgentRunError(422, "Imported artifact was changed; existing file retained");
    }
    return {
      filename: name,
      path: uploadPath(name),
      sha256: sha256Hex(content),
      size: content.byteLength,
    };
  }

  /**
   * The raw bytes of a file under the thread's `outputs/` or `uploads/` (no presentation needed).
   * An aborted `signal` stops the read at its next step; bytes read by then are dropped.
   */
  async readArtifact(scope: ThreadScope, path: string, signal?: AbortSignal): Promise<Uint8Array> {
    const { folders, name } = readableLocation(path);
    throwIfAborted(signal);
    const bytes = await withRoot(this.hold(scope), async (root) => {
      throwIfAborted(signal);
      const folder = await folderChain(root.base, [...root.segments, ...folders], false);
      return folder === null ? null : readFileIn(folder, name, this.deps.maxFileBytes);
    });
    throwIfAborted(signal);
    if (bytes === null) throw new AgentRunError(404, `Artifact not found: ${path}`);
    return bytes;
  }

  /** Whether files can be handed over from the thread's sandbox now (lease taken and released). */
  async checkSupport(scope: ThreadScope): Promise<void> {
    await withRoot(this.hold(scope), async () => undefined);
  }

  /** A receipt as issued by `importArtifact`, or a 422. */
  checkReceipt(receipt: ArtifactReceiptJson): ArtifactReceiptJson {
    const checkName = (name: string): string => {
      try {
        return this.deps.checkName(name);
      } catch {
        return "";
      }
    };
    return checkReceipt(receipt, checkName);
  }

  /** The runtime's pre-agent hook: runs without imports proceed untouched (and take no lease). */
  async prepareRun(run: PreparedRun, _signal: AbortSignal): Promise<ImportVerification> {
    const receipts = run.kwargs.artifact_imports ?? [];
    if (receipts.length === 0) return { kind: "proceed" };
    const scope = { threadId: run.threadId, userId: run.userId ?? this.deps.defaultUserId };
    return this.verifyImports(scope, receipts);
  }

  /**
   * Compare each receipt with the thread's current file. On a match a non-mounted sandbox stays
   * held (its release is handed back, to be called when the run ends); otherwise it is released.
   */
  async verifyImports(
    scope: ThreadScope,
    receipts: readonly ArtifactReceiptJson[],
  ): Promise<ImportVerification> {
    let held: HeldRoot;
    try {
      held = await this.hold(scope);
    } catch (error) {
      return { kind: "refuse", error: describeError(error), stopReason: ARTIFACT_UNAVAILABLE };
    }
    let conflict: string | null;
    try {
      conflict = await this.firstConflict(held.root, receipts);
    } catch (error) {
      await held.release();
      throw error;
    }
    if (conflict === null) return { kind: "proceed", release: held.release };
    await held.release();
    return {
      kind: "refuse",
      error: `Imported artifact ${conflict} was changed or removed since it was imported; the run did not start`,
      stopReason: ARTIFACT_CONFLICT,
    };
  }

  private async firstConflict(
    root: UserDataRoot,
    receipts: readonly ArtifactReceiptJson[],
  ): Promise<string | null> {
    const folder = await folderChain(root.base, [...root.segments, "uploads"], false).catch(
      () => null,
    );
    for (const receipt of receipts) {
      const bytes =
        folder === null
          ? null
          : await readFileIn(folder, receipt.filename, this.deps.maxFileBytes).catch(() => null);
      if (
        bytes === null ||
        bytes.byteLength !== receipt.size ||
        sha256Hex(bytes) !== receipt.sha256
      ) {
        return receipt.filename;
      }
    }
    return null;
  }

  private hold(scope: ThreadScope): Promise<HeldRoot> {
    return holdRoot(this.provider(), this.acquireLease, this.deps.paths, scope);
  }
}
