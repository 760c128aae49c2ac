import { Hono } from "hono";
import { z } from "zod";
import { isFawnError, NotFoundError, PayloadTooLargeError } from "../../core/errors.js";
import { assertValidId } from "../../core/ids.js";
import { FawnPaths } from "../../core/paths.js";
import { openArtifact } from "../artifacts/artifact-file.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, readJsonBody } from "../http/validation.js";

const installBody = z.strictObject({
  thread_id: z.string().min(1).max(128),
  path: z.string().min(1).max(4096),
});

/** Content types under which the body itself is the archive. */
const ARCHIVE_TYPES = new Set([
  "application/zip",
  "application/x-zip-compressed",
  "application/octet-stream",
]);

/**
 * `POST /skills/install`: installs a `.skill` archive as one of the caller's custom skills and
 * answers `{success, skill_name, message}`. Either the reference's JSON `{thread_id, path}`, a
 * file in one of the caller's threads (`mnt/user-data/outputs/x.skill` or uploads), or the
 * archive itself as the body (`Content-Type: application/zip`). A bad archive is a 400 (413 over
 * a limit, 409 for a name the caller already has) and nothing is installed.
 */
export function skillInstallRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const paths = new FawnPaths(s.config.home);
  const maxArchive = s.config.skills.install.max_archive_bytes;

  app.post("/skills/install", async (c) => {
    const userId = c.get("principal").userId;
    const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    let archive: Buffer;
    if (ARCHIVE_TYPES.has(type)) {
      archive = Buffer.from(await c.req.arrayBuffer());
    } else {
      const body = parseWith(installBody, await readJsonBody(c), "body");
      const threadId = assertValidId("thread", body.thread_id);
      await s.threads.getOwned(threadId, userId);
      archive = await readThreadArchive(paths, { userId, threadId }, body.path, maxArchive);
    }
    const { skill_name } = await s.skills.custom.install(userId, archive);
    return c.json({
      success: true,
      skill_name,
      message: `Skill '${skill_name}' installed successfully`,
    });
  });

  return app;
}

/** The archive file of the thread, read whole once its size is known to be within the limit. */
async function readThreadArchive(
  paths: FawnPaths,
  scope: { userId: string; threadId: string },
  virtualPath: string,
  maxBytes: number,
): Promise<Buffer> {
  const requested = virtualPath.replace(/^\/+/, "");
  if (!requested.endsWith(".skill")) {
    throw new NotFoundError(`Skill file not found: ${virtualPath} (a .skill file is expected)`);
  }
  let opened: Awaited<ReturnType<typeof openArtifact>>;
  try {
    opened = await openArtifact(paths, scope, requested);
  } catch (error) {
    if (isFawnError(error) && error.code === "not_found") {
      throw new NotFoundError(
        `Skill file not found: ${virtualPath} (it must be in the thread's outputs or uploads)`,
      );
    }
    throw error;
  }
  try {
    if (opened.size > maxBytes) {
      throw new PayloadTooLargeError(
        `The archive is ${opened.size} bytes; at most ${maxBytes} are accepted (skills.install.max_archive_bytes).`,
      );
    }
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}
