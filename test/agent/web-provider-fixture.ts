/**
 * A local HTTP fake of the search, reader and capture providers (DuckDuckGo, Serper, Exa,
 * Firecrawl/fastCRW, InfoQuest, GroundRoute, Crawl4AI, Browserless, Brave images). The first
 * path segment picks the behaviour, so one provider can be tested for each failure:
 * `/ok/<provider path>` answers the canned success, `/401/…` echoes the credential it got
 * (as a leaky provider would), `/429/…`, `/500/…`, `/badjson/…` and `/hang/…` (never answers).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const PROVIDER_TEST_KEY = "provider-test-key-0123456789";
/** The first bytes of a PNG: what the fake Browserless answers for a screenshot. */
export const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

export interface ProviderRequest {
  method: string;
  /** Path without the behaviour segment (`/serper/search`). */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface ProviderFixture {
  url: string;
  requests: ProviderRequest[];
  /** The last request to `path` (behaviour segment excluded). */
  last(path: string): ProviderRequest;
  close(): Promise<void>;
}

const DDG_HTML = `<!doctype html><html><body>
<div class="result results_links result--ad"><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.test">An ad</a></div>
<div class="result results_links"><h2 class="result__title">
<a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Ffawn.test%2Fdeer%3Fa%3D1%26b%3D2&amp;rut=abc">Deer &amp; <b>fawns</b></a></h2>
<a class="result__snippet" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Ffawn.test%2Fdeer">Young <b>deer</b> are called fawns.</a></div>
<div class="result results_links"><h2 class="result__title">
<a rel="nofollow" class="result__a" href="https://direct.test/page">Second result</a></h2>
<div class="result__snippet">Another snippet</div></div>
</body></html>`;

type Answer = {
  status?: number;
  type?: string;
  body: string | Buffer;
  headers?: Record<string, string>;
};
const json = (value: unknown): Answer => ({
  type: "application/json",
  body: JSON.stringify(value),
});

function successFor(request: ProviderRequest): Answer | undefined {
  const body: Record<string, unknown> = request.body.startsWith("{")
    ? JSON.parse(request.body)
    : {};
  const results = (count: number, make: (n: number) => unknown) =>
    Array.from({ length: count }, (_, index) => make(index + 1));
  switch (`${request.method} ${request.path}`) {
    case "POST /ddg/html/":
      return { type: "text/html", body: DDG_HTML };
    case "POST /ddg-blocked/html/":
      return { status: 202, type: "text/html", body: "<form id='challenge-form'>anomaly</form>" };
    case "GET /ddg-images/":
      return { type: "text/html", body: "<script>vqd='4-31337'; more</script>" };
    case "GET /ddg-images/i.js":
      return json({
        results: [
          {
            title: "Fox kit",
            image: "https://img.test/fox.jpg",
            thumbnail: "https://tse.test/fox",
            url: "https://fawn.test/fox",
          },
          { title: "Internal", image: "http://10.0.0.5/secret.png", thumbnail: "", url: "" },
          {
            title: "Local only thumb",
            image: "http://127.0.0.1/x.png",
            thumbnail: "https://tse.test/ok",
            url: "",
          },
        ],
      });
    case "POST /serper/search":
      return json({
        organic: results(12, (n) => ({
          title: `Serper ${n}`,
          link: `https://s.test/${n}`,
          snippet: `Snippet ${n}`,
        })),
      });
    case "POST /serper/images":
      return json({
        images: [
          {
            title: "Deer",
            imageUrl: "https://img.test/deer.jpg",
            thumbnailUrl: "https://tse.test/deer",
            link: "https://fawn.test/deer",
          },
        ],
      });
    case "POST /exa/search":
      return json({
        results: [
          {
            title: "Exa hit",
            url: "https://exa.test/1",
            highlights: ["first part", "second part"],
          },
          { title: null, url: "https://exa.test/2" },
        ],
      });
    case "POST /exa/contents":
      return json({
        results: [{ title: "Exa page", text: "Text read by Exa." }],
        statuses: [{ id: "x", status: "success" }],
      });
    case "POST /exa-missing/contents":
      return json({
        results: [],
        statuses: [{ id: "x", status: "error", error: { tag: "CRAWL_NOT_FOUND" } }],
      });
    case "POST /firecrawl/v2/search":
      return json({
        success: true,
        data: {
          web: [
            { title: "Firecrawl hit", url: "https://fc.test/1", description: "Found by Firecrawl" },
          ],
        },
      });
    case "POST /firecrawl/v2/scrape":
      return json({
        success: true,
        data: {
          markdown: "# Heading\n\nScraped text.",
          metadata: { title: "Scraped", statusCode: 404 },
        },
      });
    case "POST /infoquest-search":
      if (body.search_type === "Images") {
        return json({
          search_result: {
            results: [
              {
                content: {
                  results: {
                    images_results: [
                      { original: "https://img.test/iq.png", title: "IQ image" },
                      { original: "https://img.test/iq.png", title: "dup" },
                    ],
                  },
                },
              },
            ],
          },
        });
      }
      return json({
        search_result: {
          results: [
            {
              content: {
                results: {
                  organic: [
                    { title: "IQ page", url: "https://iq.test/1", desc: "Organic result" },
                    { title: "dup", url: "https://iq.test/1", desc: "" },
                  ],
                  top_stories: {
                    items: [
                      { title: "IQ news", url: "https://iq.test/news", source: "Daily Deer" },
                    ],
                  },
                },
              },
            },
          ],
        },
      });
    case "POST /infoquest-reader":
      return json({
        reader_result:
          "<html><head><title>IQ read</title></head><body><main><p>Rendered by InfoQuest.</p></main></body></html>",
      });
    case "POST /groundroute/v1/search":
      if (body.mode === "page")
        return json({
          results: [
            {
              title: "GR page",
              url: String(body.query),
              snippet: "short",
              content: "Full page text from GroundRoute.",
            },
          ],
        });
      return json({
        results: [
          { title: "GR hit", url: "https://gr.test/1", snippet: "Routed", source_engine: "brave" },
        ],
      });
    case "POST /crawl4ai/md":
      return json({
        url: body.url,
        filter: body.f,
        markdown: "Fit markdown from Crawl4AI.",
        success: true,
      });
    case "POST /crawl4ai-fail/md":
      return json({ success: false, markdown: null });
    case "POST /browserless/content":
      return {
        type: "text/html",
        body: "<html><head><title>Rendered</title></head><body><main><p>After scripts ran.</p></main></body></html>",
        headers: { "x-response-code": "404", "x-response-status": "Not Found" },
      };
    case "POST /browserless/screenshot":
      return { type: "image/png", body: PNG_BYTES };
    case "POST /browserless-html/screenshot":
      return { type: "text/html", body: "<html>login page</html>" };
    case "GET /brave/images/search":
      return json({
        results: [
          {
            title: "Brave deer",
            url: "https://fawn.test/b",
            properties: { url: "https://img.test/b.jpg" },
            thumbnail: { src: "https://tse.test/b" },
          },
        ],
      });
    default:
      return undefined;
  }
}

export async function startProviderFixture(): Promise<ProviderFixture> {
  const requests: ProviderRequest[] = [];
  const send = (res: ServerResponse, answer: Answer) => {
    res.writeHead(answer.status ?? 200, {
      "content-type": answer.type ?? "text/plain",
      ...answer.headers,
    });
    res.end(answer.body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fixture.local");
      const [, behaviour = "", ...rest] = url.pathname.split("/");
      const request: ProviderRequest = {
        method: req.method ?? "",
        path: `/${rest.join("/")}`,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const credential = String(
        req.headers["x-api-key"] ??
          req.headers["x-subscription-token"] ??
          req.headers.authorization ??
          url.searchParams.get("token") ??
          "",
      );
      switch (behaviour) {
        case "401":
          return send(res, { status: 401, body: `invalid credential: ${credential}` });
        case "429":
          return send(res, { status: 429, body: "slow down" });
        case "500":
          return send(res, { status: 500, body: "internal error" });
        case "badjson":
          return send(res, { type: "application/json", body: "{not json" });
        case "hang":
          return;
        case "ok": {
          const answer = successFor(request);
          return send(
            res,
            answer ?? { status: 404, body: `no fake for ${request.method} ${request.path}` },
          );
        }
        default:
          return send(res, { status: 404, body: "unknown behaviour" });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    last(path) {
      const found = requests.findLast((entry) => entry.path === path);
      if (!found) throw new Error(`no request to ${path}`);
      return found;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
