import type { Context } from "hono";
import { Hono } from "hono";
import { NotFoundError } from "../../core/errors.js";
import { FawnPaths, type ThreadScope } from "../../core/paths.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { pathId } from "../http/validation.js";
import { receiveUploads } from "./receive-uploads.js";
import { UploadFolder } from "./upload-folder.js";
import { type ApiUploadedFile, toApiUploadedFile } from "./upload-info.js";
import { checkUploadName } from "./upload-name.js";

const UPLOAD_POST_PATH = /\/threads\/[^/]+\/uploads\/?$/;

/**
 * True for `POST …/threads/{id}/uploads`: that route streams its body to disk under its own
 * limits (`uploads.max_total_size`), so the gateway's general body limit does not apply to it.
 */
export function isUploadRequest(c: Context): boolean {
  return c.req.method === "POST" && UPLOAD_POST_PATH.test(c.req.path);
}

/**
 * The reference's upload routes under `/threads/{thread_id}/uploads`: upload (multipart field
 * `files`), list, limits, delete. Owner only: another user's thread is 404, like the artifact
 * route. A thread id nobody has created yet is the caller's to be (a new chat attaches files
 * before its first run creates the thread, as in the reference): its folder is made on the first
 * upload, under the caller's own user folder. Files land in the thread's uploads folder, which
 * the agent sees read-only at `/mnt/user-data/uploads`.
 */
export function uploadRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const paths = new FawnPaths(s.config.home);
  const limits = s.config.uploads;

  async function ownedScope(c: Context<GatewayEnv>): Promise<ThreadScope> {
    const threadId = pathId(c, "thread_id", "thread");
    const userId = c.get("principal").userId;
    await s.threads.getOwnedOrUnclaimed(threadId, userId);
    return { userId, threadId };
  }

  app.post("/threads/:thread_id/uploads", async (c) => {
    const scope = await ownedScope(c);
    const folder = await UploadFolder.create(paths, scope);
    const received = await receiveUploads(c.req.raw, folder, limits);
    await folder.publish(received);
    const files = received.map((file) => toApiUploadedFile(scope.threadId, file));
    return c.json({
      success: true,
      files,
      message: `Successfully uploaded ${files.length} file(s)`,
      skipped_files: [],
    });
  });

  app.get("/threads/:thread_id/uploads/limits", async (c) => {
    await ownedScope(c);
    return c.json({
      max_files: limits.max_files,
      max_file_size: limits.max_file_size,
      max_total_size: limits.max_total_size,
    });
  });

  const list = async (c: Context<GatewayEnv>) => {
    const scope = await ownedScope(c);
    const folder = await UploadFolder.existing(paths, scope);
    const files: ApiUploadedFile[] = (folder ? await folder.list() : []).map((file) =>
      toApiUploadedFile(scope.threadId, file),
    );
    return c.json({ files, count: files.length });
  };
  app.get("/threads/:thread_id/uploads/list", list);
  app.get("/threads/:thread_id/uploads", list);

  app.delete("/threads/:thread_id/uploads/:filename", async (c) => {
    const scope = await ownedScope(c);
    const filename = checkUploadName(c.req.param("filename"));
    const folder = await UploadFolder.existing(paths, scope);
    if (folder === null)
      throw new NotFoundError(
        `Upload not found: ${filename}; nothing was uploaded to this thread.`,
      );
    await folder.delete(filename);
    return c.json({ success: true, message: `Deleted ${filename}` });
  });

  return app;
}
