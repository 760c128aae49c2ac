/**
 * A plugin route answering raw bytes, through the gateway `fawn serve` builds: the bytes arrive
 * unchanged with their type, length and `nosniff`; only types safe to show are `inline` (Markdown,
 * PNG), while HTML, SVG, unknown types and an asked-for download are attachments; a missing type
 * comes from the file name; a malformed answer is a 400 and a diagnostic, never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginBinaryResponse } from "../../../src/extensions/api/index.js";
import { contributing, testPlugin } from "./plugin-fixtures.js";
import { type PluginServer, startPluginServer } from "./plugin-server.js";

const MARKDOWN = "# Report\n\nNon-ASCII: café ✓\n";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
const HTML = "<script>alert(document.cookie)</script>";

/** What each `GET /files/:name` answers. */
const ANSWERS: Record<string, () => PluginBinaryResponse> = {
  markdown: () => ({
    bytes: new TextEncoder().encode(MARKDOWN),
    contentType: "text/markdown; charset=utf-8",
    filename: "report.md",
  }),
  png: () => ({ bytes: PNG, contentType: "image/png", filename: "chart.png" }),
  html: () => ({ bytes: new TextEncoder().encode(HTML), contentType: "text/html" }),
  svg: () => ({ bytes: new TextEncoder().encode("<svg/>"), filename: "logo.svg" }),
  typeless: () => ({ bytes: new TextEncoder().encode("a,b\n"), filename: "data.csv" }),
  opaque: () => ({ bytes: new Uint8Array([1, 2, 3]) }),
  download: () => ({
    bytes: new TextEncoder().encode("plain"),
    contentType: "text/plain",
    filename: "notes.txt",
    download: true,
  }),
  unicode: () => ({ bytes: new Uint8Array([1]), filename: 'résumé "final".pdf' }),
  "bad-type": () => ({ bytes: new Uint8Array([1]), contentType: "text/plain\r\nX-Evil: 1" }),
  // A plugin in plain JavaScript can answer anything: here a string where bytes belong.
  "not-bytes": () => JSON.parse('{"bytes": "text", "contentType": "text/plain"}'),
};

let server: PluginServer;

beforeAll(async () => {
  const plugin = testPlugin(
    "test.binary",
    contributing({
      routes: [
        {
          method: "GET",
          path: "/files/:name",
          handler: async ({ params }) => {
            const answer = ANSWERS[params.name ?? ""];
            if (!answer) return { status: 404, body: { detail: "no such file" } };
            return answer();
          },
        },
      ],
    }),
  );
  server = await startPluginServer({
    plugins: [{ use: "binary" }],
    settings: { builtinPlugins: { binary: async () => plugin } },
  });
});

afterAll(async () => {
  await server?.close();
});

const get = (name: string, user: string | null = "alice") =>
  server.request("GET", `/api/extensions/test.binary/files/${name}`, undefined, user);

describe("binary plugin route answers", () => {
  it("sends the bytes with their type and length; Markdown is shown inline", async () => {
    const response = await get("markdown");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-disposition")).toBe(
      `inline; filename="report.md"; filename*=UTF-8''report.md`,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(new TextDecoder().decode(bytes)).toBe(MARKDOWN);
  });

  it("sends binary bytes unchanged; a raster image is inline", async () => {
    const response = await get("png");
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toMatch(/^inline;/);
    expect(response.headers.get("content-length")).toBe(String(PNG.byteLength));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
  });

  it("HTML and SVG are never inline", async () => {
    const html = await get("html");
    expect(html.headers.get("content-type")).toBe("text/html");
    expect(html.headers.get("content-disposition")).toMatch(/^attachment; filename="download"/);
    expect(html.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await html.text()).toBe(HTML);
    const svg = await get("svg");
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.headers.get("content-disposition")).toMatch(/^attachment; filename="logo.svg"/);
  });

  it("derives a missing type from the file name, else octet-stream (an attachment)", async () => {
    const csv = await get("typeless");
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^inline;/);
    const opaque = await get("opaque");
    expect(opaque.headers.get("content-type")).toBe("application/octet-stream");
    expect(opaque.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(new Uint8Array(await opaque.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("an asked-for download is an attachment; non-ASCII names are encoded (RFC 5987)", async () => {
    expect((await get("download")).headers.get("content-disposition")).toMatch(
      /^attachment; filename="notes.txt"/,
    );
    const unicode = await get("unicode");
    expect(unicode.headers.get("content-type")).toBe("application/pdf");
    expect(unicode.headers.get("content-disposition")).toBe(
      `inline; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
  });

  it("a malformed answer is a 400 and a diagnostic; JSON answers are unchanged; auth applies", async () => {
    for (const name of ["bad-type", "not-bytes"]) {
      const before = server.fawn.extensions.diagnostics.size;
      const response = await get(name);
      expect(response.status).toBe(400);
      expect(response.headers.get("x-evil")).toBeNull();
      expect(await response.json()).toEqual({
        detail: "The plugin gave an invalid answer.",
        code: "bad_request",
      });
      expect(server.fawn.extensions.diagnostics.list().slice(before)).toEqual([
        expect.objectContaining({ namespace: "test.binary", level: "error" }),
      ]);
    }
    const missing = await get("nothing");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: "no such file" });
    expect((await get("markdown", null)).status).toBe(401);
  });
});
