import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a fake third-party endpoint received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RecordingEndpoint {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Answer = { status: number; json?: unknown };

/**
 * A local HTTP server standing in for a tracing backend (an OTLP collector, LangSmith, Langfuse):
 * it records every request and answers with what `answer` says (default 200 `{}`).
 */
export async function startRecordingEndpoint(
  answer: (request: RecordedRequest) => Answer = () => ({ status: 200, json: {} }),
): Promise<RecordingEndpoint> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      const { status, json } = answer(recorded);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The JSON body of a request (OTLP/HTTP JSON exports, LangSmith batches). */
export function jsonBody(request: RecordedRequest): unknown {
  return JSON.parse(request.body.toString("utf8"));
}
