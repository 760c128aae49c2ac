/**
 * A local HTTP server for the web tool tests: it impersonates the Tavily, SearXNG, Brave and
 * Jina APIs and serves HTML, text, JSON, binary, huge, compressed and redirecting pages.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

export const TAVILY_TEST_KEY = "tvly-test-key-0123456789";
export const BRAVE_TEST_KEY = "brave-test-key-0123456789";
export const JINA_TEST_KEY = "jina-test-key-0123456789";

export const ARTICLE_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Fawn &amp; the Web</title>
<style>body { color: red }</style><script>document.write("<p>tracking</p>")</script></head>
<body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main>
<h1>Fawn reads pages</h1>
<p>The <a href="/docs/tools?x=1&amp;y=2">tool docs</a> explain   web_fetch.</p>
<ul><li>Readable text</li><li>Links kept</li></ul>
<pre><code>const answer = 42;
if (a &lt; b) return;</code></pre>
</main>
<footer>Copyright footer</footer>
</body></html>`;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface WebFixture {
  url: string;
  requests: RecordedRequest[];
  /** Resolves once a client hung up on /huge.txt before it was fully sent. */
  hugeAbandoned: Promise<void>;
  /** Resolves once the client dropped its /hang-until-cancelled request. */
  hangClosed: Promise<void>;
  /** Resolves when a request for `path` arrives (now, if one already has). */
  requestFor(path: string): Promise<void>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string, url: URL) => void;

const SEARCH_RESULTS = Array.from({ length: 8 }, (_, index) => ({
  title: `Result <b>${index + 1}</b> &amp; more`,
  url: `https://example.com/result-${index + 1}`,
  content: `Snippet number ${index + 1} about <em>fawns</em>.`,
}));

export async function startWebFixture(): Promise<WebFixture> {
  const requests: RecordedRequest[] = [];
  let markAbandoned = () => {};
  const hugeAbandoned = new Promise<void>((resolve) => {
    markAbandoned = resolve;
  });
  let markHangClosed = () => {};
  const hangClosed = new Promise<void>((resolve) => {
    markHangClosed = resolve;
  });
  const arrivals: Array<{ path: string; arrived: () => void }> = [];
  let origin = "";

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, { "content-type": type });
    res.end(body);
  };

  const routes: Record<string, Handler> = {
    "GET /page.html": (_req, res) => send(res, 200, "text/html; charset=utf-8", ARTICLE_HTML),
    "GET /plain.txt": (_req, res) => send(res, 200, "text/plain", "just some plain text\nline 2\n"),
    "GET /data.json": (_req, res) =>
      send(res, 200, "application/json", JSON.stringify({ name: "fawn", tools: ["web_fetch"] })),
    "GET /image.png": (_req, res) =>
      send(res, 200, "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])),
    "GET /unlabelled.bin": (_req, res) => {
      res.writeHead(200);
      res.end(Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0]));
    },
    "GET /latin1.html": (_req, res) =>
      send(
        res,
        200,
        "text/html; charset=iso-8859-1",
        Buffer.from("<html><title>Caf\xe9</title><p>cr\xe8me br\xfbl\xe9e</p></html>", "latin1"),
      ),
    "GET /gzip.html": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
      res.end(gzipSync(ARTICLE_HTML));
    },
    "GET /empty.html": (_req, res) => send(res, 200, "text/html", "<html><body></body></html>"),
    "GET /huge.txt": (_req, res) => {
      // 64 MiB in 64 KiB chunks, written only as fast as the client reads.
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "a");
      let left = 1024;
      let finished = false;
      res.on("close", () => {
        if (!finished) markAbandoned();
      });
      const pump = () => {
        while (left > 0) {
          left -= 1;
          if (!res.write(chunk)) {
            res.once("drain", pump);
            return;
          }
        }
        finished = true;
        res.end();
      };
      pump();
    },
    "GET /redirect": (_req, res, _body, url) => {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/page.html" });
      res.end();
    },
    "GET /loop": (_req, res) => {
      res.writeHead(302, { location: "/loop" });
      res.end();
    },
    "GET /missing": (_req, res) => send(res, 404, "text/plain", "nope"),
    "GET /hang": () => undefined,
    "GET /hang-until-cancelled": (_req, res) => res.on("close", markHangClosed),

    "POST /tavily/search": (req, res, body) => {
      if (req.headers.authorization !== `Bearer ${TAVILY_TEST_KEY}`) {
        // Real APIs sometimes echo the rejected key; the tool must mask it.
        return send(
          res,
          401,
          "application/json",
          JSON.stringify({ detail: { error: `Unauthorized: invalid key ${bearerOf(req)}` } }),
        );
      }
      const request = JSON.parse(body) as { query: string; max_results: number };
      const results = SEARCH_RESULTS.slice(0, request.max_results).map((result) => ({
        ...result,
        title: `${result.title} for ${request.query}`,
      }));
      send(res, 200, "application/json", JSON.stringify({ query: request.query, results }));
    },
    "POST /tavily/extract": (req, res, body) => {
      if (req.headers.authorization !== `Bearer ${TAVILY_TEST_KEY}`) {
        return send(res, 401, "application/json", '{"detail":"bad key"}');
      }
      const { urls } = JSON.parse(body) as { urls: string[] };
      const url = urls[0] ?? "";
      if (url.endsWith("/fails")) {
        return send(
          res,
          200,
          "application/json",
          JSON.stringify({ results: [], failed_results: [{ url, error: "page blocked" }] }),
        );
      }
      send(
        res,
        200,
        "application/json",
        JSON.stringify({ results: [{ url, raw_content: `Extracted text of ${url}` }] }),
      );
    },
    "GET /searx/search": (_req, res, _body, url) => {
      // Instances without json in search.formats answer 403.
      const jsonDisabled = url.searchParams.get("q") === "json disabled";
      if (url.searchParams.get("format") !== "json" || jsonDisabled) {
        return send(res, 403, "text/html", "Forbidden");
      }
      if (url.searchParams.get("q") === "broken")
        return send(res, 200, "application/json", "{oops");
      send(
        res,
        200,
        "application/json",
        JSON.stringify({ query: url.searchParams.get("q"), results: SEARCH_RESULTS }),
      );
    },
    "GET /brave/res/v1/web/search": (req, res, _body, url) => {
      if (req.headers["x-subscription-token"] !== BRAVE_TEST_KEY) {
        return send(res, 401, "application/json", '{"error":"invalid token"}');
      }
      const count = Number(url.searchParams.get("count") ?? "20");
      const results = SEARCH_RESULTS.slice(0, count).map((result) => ({
        title: result.title,
        url: result.url,
        description: result.content,
      }));
      send(res, 200, "application/json", JSON.stringify({ type: "search", web: { results } }));
    },
    "POST /jina/": (req, res, body) => {
      const { url } = JSON.parse(body) as { url: string };
      const keyed = req.headers.authorization === `Bearer ${JINA_TEST_KEY}`;
      send(
        res,
        200,
        "text/plain",
        `Title: Jina view\n\nURL Source: ${url}\n\nMarkdown Content:\nRead by Jina (${keyed ? "keyed" : "anonymous"}).`,
      );
    },
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", origin);
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, body });
      for (const waiter of arrivals.filter((entry) => entry.path === url.pathname)) {
        waiter.arrived();
      }
      const handler = routes[`${req.method} ${url.pathname}`];
      if (handler) handler(req, res, body, url);
      else send(res, 404, "text/plain", "no such fixture");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    requests,
    hugeAbandoned,
    hangClosed,
    requestFor: (path) =>
      requests.some((request) => request.path === path)
        ? Promise.resolve()
        : new Promise<void>((arrived) => arrivals.push({ path, arrived })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function bearerOf(req: IncomingMessage): string {
  return (req.headers.authorization ?? "").replace(/^Bearer /, "");
}
