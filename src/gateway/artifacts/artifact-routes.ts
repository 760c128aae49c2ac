import { Readable } from "node:stream";
import { Hono } from "hono";
import { z } from "zod";
import { FawnPaths } from "../../core/paths.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { firstValues, queryBool } from "../http/query.js";
import { parseWith, pathId, readJsonBody } from "../http/validation.js";
import { contentDisposition, presentationOf } from "./artifact-content-type.js";
import {
  artifactUpdateBody,
  editableArtifactPath,
  MAX_EDITABLE_ARTIFACT_BYTES,
  sha256Hex,
  updateArtifact,
} from "./artifact-edit.js";
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
    const headers: Record<string, string> = {
      "Content-Type": presentation.contentType,
      "Content-Length": String(artifact.size),
      "Content-Disposition": contentDisposition(presentation.disposition, artifact.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
    };
    // An editable-sized file is read whole: its ETag is the sha256 an edit sends back as
    // `expected_sha256` (the reference's editor reads it from there).
    if (artifact.size <= MAX_EDITABLE_ARTIFACT_BYTES) {
      const bytes = await artifact.handle.readFile().finally(() => artifact.handle.close());
      headers.ETag = `"${sha256Hex(bytes)}"`;
      headers["Content-Length"] = String(bytes.length);
      if (c.req.method === "HEAD") return c.body(null, 200, headers);
      return c.body(new Uint8Array(bytes), 200, headers);
    }
    // GET routes answer HEAD too; nobody would read the stream, so close the file now.
    if (c.req.method === "HEAD") {
      await artifact.handle.close();
      return c.body(null, 200, headers);
    }
    // The stream closes the file when it ends, fails, or the client goes away.
    return c.body(Readable.toWeb(artifact.handle.createReadStream()), 200, headers);
  });

  /**
   * `PUT …/artifacts/{path}` with `{content, expected_sha256}`: the artifacts panel's save. 412
   * (with `current_sha256`) when the file changed since it was opened, 409 while a run or another
   * operation is in flight on the thread; answers `{path, sha256, size}`.
   */
  app.put("/threads/:thread_id/artifacts/:path{.+}", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const userId = c.get("principal").userId;
    await s.threads.getOwned(threadId, userId);
    const path = editableArtifactPath(c.req.param("path"));
    const body = parseWith(artifactUpdateBody, await readJsonBody(c), "body");
    const saved = await s.threads.withOperation(threadId, userId, "artifact_write", () =>
      updateArtifact(paths, { userId, threadId }, path, {
        content: body.content,
        expectedSha256: body.expected_sha256,
      }),
    );
    return c.json(saved);
  });

  return app;
}
