import { Readable } from "node:stream";
import { Hono } from "hono";
import { z } from "zod";
import { FawnPaths } from "../../core/paths.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { firstValues, queryBool } from "../http/query.js";
import { parseWith, pathId } from "../http/validation.js";
import { contentDisposition, presentationOf } from "./artifact-content-type.js";
import { openArtifact } from "./artifact-file.js";

const artifactQuery = z.object({ download: queryBool.optional() });

/**
 * `GET /threads/{thread_id}/artifacts/{path}`: a file the thread's agent delivered or its user
 * uploaded, where `path` is its virtual path without the leading slash
 * (`mnt/user-data/outputs/report.md`, as the reference addresses artifacts). Owner only: another
 * user's thread is 404, like any path that is not a regular file inside outputs or uploads.
 */
export function artifactRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const paths = new FawnPaths(s.config.home);

  app.get("/threads/:thread_id/artifacts/:path{.+}", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const query = parseWith(artifactQuery, firstValues(c.req.queries()), "query");
    const userId = c.get("principal").userId;
    await s.threads.getOwned(threadId, userId);
    const artifact = await openArtifact(paths, { userId, threadId }, c.req.param("path"));
    const presentation = presentationOf(artifact.fileName, query.download ?? false);
    const headers = {
      "Content-Type": presentation.contentType,
      "Content-Length": String(artifact.size),
      "Content-Disposition": contentDisposition(presentation.disposition, artifact.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
    };
    // GET routes answer HEAD too; nobody would read the stream, so close the file now.
    if (c.req.method === "HEAD") {
      await artifact.handle.close();
      return c.body(null, 200, headers);
    }
    // The stream closes the file when it ends, fails, or the client goes away.
    return c.body(Readable.toWeb(artifact.handle.createReadStream()), 200, headers);
  });

  return app;
}
