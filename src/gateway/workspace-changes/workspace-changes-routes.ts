import { Hono } from "hono";
import { z } from "zod";
import { FawnPaths } from "../../core/paths.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { firstValues, queryBool } from "../http/query.js";
import { parseWith, pathId } from "../http/validation.js";
import { fileEditsOf, producedPathsOf } from "./journal-file-edits.js";
import { buildWorkspaceChanges, type WorkspaceChangesReport } from "./workspace-change-report.js";

const changesQuery = z.object({
  include_files: queryBool.optional(),
  include_diff: queryBool.optional(),
});

/** The journal events a report is built from; a run's journal is bounded by its own limits. */
const JOURNAL_EVENT_TYPES = ["llm.ai.response", "llm.tool.result", "run.delivery"];
const MAX_JOURNAL_EVENTS = 5000;

/**
 * `GET /threads/{id}/runs/{run_id}/workspace-changes?include_files&include_diff`: the files the
 * run created or changed in the thread's workspace and outputs, in the reference's shape
 * (`{available, version, summary, files, limits}`; `available: false` when it changed none).
 * Owner only: another user's run is 404.
 */
export function workspaceChangesRoutes(s: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const paths = new FawnPaths(s.config.home);

  app.get("/threads/:thread_id/runs/:run_id/workspace-changes", async (c) => {
    const threadId = pathId(c, "thread_id", "thread");
    const runId = pathId(c, "run_id", "run");
    const query = parseWith(changesQuery, firstValues(c.req.queries()), "query");
    const userId = c.get("principal").userId;
    await s.runs.getOwned(threadId, runId, userId);
    const events = await s.events.listEvents(threadId, runId, {
      eventTypes: JOURNAL_EVENT_TYPES,
      limit: MAX_JOURNAL_EVENTS,
      userId,
    });
    const report = await buildWorkspaceChanges(
      paths,
      { userId, threadId },
      fileEditsOf(events),
      producedPathsOf(events),
    );
    return c.json(shaped(report, query.include_files ?? true, query.include_diff ?? true));
  });

  return app;
}

function shaped(
  report: WorkspaceChangesReport,
  includeFiles: boolean,
  includeDiff: boolean,
): WorkspaceChangesReport {
  if (!includeFiles) return { ...report, files: [] };
  if (includeDiff) return report;
  return { ...report, files: report.files.map((file) => ({ ...file, diff: "" })) };
}
