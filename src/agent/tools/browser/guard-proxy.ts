import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from "node:http";
import { connect, type Socket } from "node:net";
import { checkFetchTarget, type FetchTargetPolicy, pinnedLookup } from "../web/url-guard.js";

/**
 * A local HTTP proxy one browser context sends every request through: the page's URL, each
 * redirect hop, links, frames, subresources and HTTPS tunnels. Each target must pass the web
 * tools' private-address check and is connected to the checked address (no DNS rebinding).
 * Playwright's request routing cannot do this: it does not see redirect hops.
 */
export class GuardProxy {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(
    policy: FetchTargetPolicy,
    refused: (message: string) => void,
  ): Promise<GuardProxy> {
    const server = createServer((req, res) => {
      forward(req, res, policy, refused).catch(() => res.destroy());
    });
    server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
      tunnel(req, client, head, policy, refused).catch(() => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    return new GuardProxy(server, `http://127.0.0.1:${port}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The checked target, or why not in the guard's words. Only private-address refusals are
 * reported to the model; an unresolvable host is an ordinary network error for the page.
 */
async function check(target: string, policy: FetchTargetPolicy) {
  try {
    return { target: await checkFetchTarget(target, policy) };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const refusal = text.replace(/^Refusing to fetch/, "Refusing to browse");
    return { refusal, report: refusal.startsWith("Refusing") };
  }
}

async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  policy: FetchTargetPolicy,
  refused: (message: string) => void,
): Promise<void> {
  const checked = await check(req.url ?? "", policy);
  if (!checked.target) {
    if (checked.report) refused(checked.refusal);
    res.writeHead(403, { "content-type": "text/plain; charset=utf-8" });
    res.end(`Blocked by Fawn: ${checked.refusal}`);
    return;
  }
  const { url, addresses } = checked.target;
  const headers = { ...req.headers };
  delete headers["proxy-connection"];
  const upstream = request(url, {
    method: req.method,
    headers,
    ...(addresses ? { lookup: pinnedLookup(addresses) } : {}),
  });
  upstream.on("response", (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}

async function tunnel(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  policy: FetchTargetPolicy,
  refused: (message: string) => void,
): Promise<void> {
  const checked = await check(`https://${req.url ?? ""}/`, policy);
  if (!checked.target) {
    if (checked.report) refused(checked.refusal);
    client.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
    return;
  }
  const { url, addresses } = checked.target;
  const host = addresses?.[0]?.address ?? url.hostname.replace(/^\[|\]$/g, "");
  const upstream = connect(Number(url.port || 443), host, () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on("error", () => client.destroy());
  client.on("error", () => upstream.destroy());
}
