/** A request the isolation tests send with another user's ids: method, API path, JSON body. */
export type ForeignRoute = [method: string, path: string, body?: unknown];

export const RUN_BODY = {
  assistant_id: "lead_agent",
  input: { messages: [{ role: "user", content: "x" }] },
};

/**
 * Every thread, run, event and file route addressed with the owner's ids. Both isolation suites
 * (test auth seam and real local auth) send this one table, so a new route is covered by both.
 */
export function foreignRoutes(ids: {
  threadId: string;
  runId: string;
  checkpointId: string;
}): ForeignRoute[] {
  const t = `/threads/${ids.threadId}`;
  const r = `${t}/runs/${ids.runId}`;
  const onThread = { ...RUN_BODY, config: { configurable: { thread_id: ids.threadId } } };
  return [
    ["GET", t],
    ["PATCH", t, { metadata: { hijacked: true } }],
    ["DELETE", t],
    ["GET", `${t}/state`],
    ["POST", `${t}/state`, { values: { messages: [] } }],
    ["GET", `${t}/state/${ids.checkpointId}`],
    ["POST", `${t}/state/checkpoint`, { checkpoint: { checkpoint_id: ids.checkpointId } }],
    ["POST", `${t}/history`, { limit: 10 }],
    ["GET", `${t}/history`],
    ["POST", `${t}/runs`, RUN_BODY],
    ["POST", `${t}/runs`, { ...RUN_BODY, if_not_exists: "create" }],
    ["POST", `${t}/runs/stream`, RUN_BODY],
    ["POST", `${t}/runs/wait`, RUN_BODY],
    ["GET", `${t}/runs`],
    ["GET", r],
    ["DELETE", r],
    ["POST", `${r}/cancel?wait=1`],
    ["GET", `${r}/join`],
    ["GET", `${r}/stream`],
    ["POST", `${r}/stream`],
    ["GET", `${r}/events`],
    ["GET", `${r}/messages`],
    ["GET", `${t}/messages`],
    ["GET", `${t}/messages/page`],
    ["GET", `${t}/artifacts/mnt/user-data/outputs/report.md`],
    ["POST", `${t}/uploads`, {}],
    ["GET", `${t}/uploads/list`],
    ["GET", `${t}/uploads`],
    ["GET", `${t}/uploads/limits`],
    ["DELETE", `${t}/uploads/report.md`],
    ["POST", "/runs/stream", onThread],
    ["POST", "/runs/wait", onThread],
    ["POST", "/runs", onThread],
  ];
}
