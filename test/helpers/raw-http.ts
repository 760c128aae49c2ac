/**
 * Raw HTTP over a `net` socket, for requests no HTTP client would send (a bad request line, bad
 * chunked encoding, a NUL in a header, a request of only CRLFs, a body that stalls).
 */
import { connect } from "node:net";

export interface RawHttpAnswer {
  /** Status of the first response line, or null when the server closed without answering. */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent, until it closed the connection. */
  raw: string;
}

/**
 * Connects to `url`'s host and port, writes `chunks` (the socket stays open for writing
 * afterwards, so a stalled request stays stalled), and collects what the server sends until it
 * closes the connection. Rejects after `deadlineMs` (generous: a deadline, not a timing check).
 */
export function rawHttpExchange(
  url: string,
  chunks: Array<string | Buffer>,
  options: { deadlineMs?: number } = {},
): Promise<RawHttpAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`server did not close the connection within ${options.deadlineMs}ms`));
    }, options.deadlineMs ?? 20_000);
    socket.on("connect", () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on("data", (data) => received.push(data));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(deadline);
      resolve(parseAnswer(Buffer.concat(received).toString("utf8")));
    });
  });
}

function parseAnswer(raw: string): RawHttpAnswer {
  const headEnd = raw.indexOf("\r\n\r\n");
  const head = headEnd === -1 ? raw : raw.slice(0, headEnd);
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: match ? Number(match[1]) : null,
    headers,
    body: headEnd === -1 ? "" : raw.slice(headEnd + 4),
    raw,
  };
}
