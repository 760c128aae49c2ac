import { request as httpRequest } from "node:http";

export interface RawResponse {
  status: number;
  body: string;
}

export interface RawRequest {
  method: string;
  /** Sent byte for byte: no URL normalization folds `..` or `%2e%2e` away, as fetch would. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

/** One HTTP request over a plain socket to `baseUrl`'s host and port. */
export function rawRequest(baseUrl: string, options: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: options.path,
        method: options.method,
        // A fresh connection each time: reusing a kept-alive socket the server is closing would
        // fail the request with "socket hang up".
        agent: false,
        headers: {
          ...options.headers,
          ...(options.chunked ? { "transfer-encoding": "chunked" } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    const body = options.body ?? Buffer.alloc(0);
    for (let offset = 0; offset < body.length; offset += 64 * 1024) {
      req.write(body.subarray(offset, offset + 64 * 1024));
    }
    req.end();
  });
}
