/** The UI never turns text into markup: no source in web/src writes raw HTML into the page. */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const WEB_SRC = fileURLToPath(new URL("../../web/src", import.meta.url));
const RAW_HTML =
  /dangerouslySetInnerHTML|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write/;

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? sources(join(dir, entry.name))
        : Promise.resolve([join(dir, entry.name)]),
    ),
  );
  return nested.flat().filter((file) => /\.(ts|tsx)$/.test(file));
}

it("no web source writes raw HTML", async () => {
  const files = await sources(WEB_SRC);
  expect(files.length).toBeGreaterThan(10);
  for (const file of files) {
    expect({ file, rawHtml: RAW_HTML.test(await readFile(file, "utf8")) }).toEqual({
      file,
      rawHtml: false,
    });
  }
});
