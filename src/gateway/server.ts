import type { AddressInfo, Socket } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { errorBody } from "../core/errors.js";
import type { GatewayEnv } from "./http/gateway-env.js";

export interface GatewayServer {
  /** `http://host:port`, with the real port when 0 was asked for. */
  url: string;
  host: string;
  port: number;
  /** Stop accepting connections (open streams keep running). */
  stopAccepting(): void;
  /** Close every remaining connection and wait until the server is down. */
  close(): Promise<void>;
}

/**
 * Connection timeouts (`server.*_timeout_seconds`). They bound how long a client may take to
 * SEND its request; a response (an SSE stream of a long run) is never cut by them.
 */
export interface ServerTimeouts {
  /** Time to receive the request line and headers (a request of only CRLFs ends here). */
  headersTimeoutSeconds: number;
  /** Time to receive the whole request, body included (a stalled upload ends here). */
  requestTimeoutSeconds: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutSeconds: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeoutSeconds: 30,
  requestTimeoutSeconds: 120,
  keepAliveTimeoutSeconds: 5,
};

/** Serve the gateway app on Node's HTTP server. */
export function startGatewayServer(
  app: Hono<GatewayEnv>,
  options: { port: number; host: string; timeouts?: Partial<ServerTimeouts> },
): Promise<GatewayServer> {
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts };
  const headersTimeout = timeouts.headersTimeoutSeconds * 1000;
  // Node requires headersTimeout ≤ requestTimeout.
  const requestTimeout = Math.max(headersTimeout, timeouts.requestTimeoutSeconds * 1000);
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        port: options.port,
        hostname: options.host,
        serverOptions: {
          headersTimeout,
          requestTimeout,
          keepAliveTimeout: timeouts.keepAliveTimeoutSeconds * 1000,
          // Node checks the two timeouts above only this often (default 30 s).
          connectionsCheckingInterval: Math.min(5000, Math.max(100, headersTimeout / 4)),
        },
      },
      (info: AddressInfo) => {
        server.off("error", reject);
        const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
        const closed = new Promise<void>((done) => server.once("close", () => done()));
        resolve({
          url: `http://${host}:${info.port}`,
          host: info.address,
          port: info.port,
          stopAccepting: () => {
            server.close();
          },
          close: async () => {
            server.close();
            if ("closeAllConnections" in server) server.closeAllConnections();
            await closed;
          },
        });
      },
    );
    server.on("clientError", answerClientError);
    server.once("error", reject);
  });
}

/**
 * Requests Node's parser refuses before any route sees them (bad request line, bad chunked
 * encoding, NUL in a header, header/request timeout) get the same `{detail}` JSON body as every
 * other error, and the connection is closed (the byte stream cannot be trusted any more).
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || !socket.writable || responseStarted(socket)) {
    socket.destroy();
    return;
  }
  const { status, reason, code, message } = describeClientError(error.code);
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      "Content-Type: application/json\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
  );
  // A client that never reads must not keep the socket.
  socket.setTimeout(5000, () => socket.destroy());
}

/** Whether a response on this socket already sent its head (then raw bytes would corrupt it). */
function responseStarted(socket: Socket): boolean {
  if (!("_httpMessage" in socket)) return false;
  const message = socket._httpMessage;
  return (
    typeof message === "object" &&
    message !== null &&
    "headersSent" in message &&
    message.headersSent === true
  );
}

function describeClientError(code: string | undefined): {
  status: number;
  reason: string;
  code: string;
  message: string;
} {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        reason: "Request Timeout",
        code: "request_timeout",
        message: "The request was not received in time; send headers and body promptly.",
      };
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        reason: "Request Header Fields Too Large",
        code: "headers_too_large",
        message: "Request headers are too large.",
      };
    default:
      return {
        status: 400,
        reason: "Bad Request",
        code: "bad_request",
        message: `Malformed HTTP request (${code ?? "parse error"}).`,
      };
  }
}
