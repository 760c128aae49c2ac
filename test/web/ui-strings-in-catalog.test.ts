/**
 * No user-visible string is written into a component: JSX text and the literal values of
 * `aria-label`, `title`, `placeholder` and `alt` in `web/src/**\/*.tsx` must contain no letters
 * (the brand and symbols such as "×" are fine) — words come from the catalog (`useT`). Files not
 * converted yet are listed in `UNCONVERTED_UI_FILES`, which may only shrink.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hardCodedStrings, hardCodedStringsIn } from "./helpers/hard-coded-ui-strings.js";
import { UNCONVERTED_UI_FILES } from "./helpers/unconverted-ui-files.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const WEB_SRC = fileURLToPath(new URL("../../web/src/", import.meta.url));

describe("hard-coded UI strings", () => {
  it("are found in JSX text, read attributes and shown expressions, not elsewhere", () => {
    const source = `
      export function X({ on, t }) {
        const mode = "login";
        return (
          <div className="card" data-state="open">
            Sign in
            <button aria-label="Close the panel" title={on ? "Hide it" : t("show")} />
            <img alt={\`Photo of \${name}\`} src="/a.png" />
            <input placeholder={t("search")} />
            {mode === "login" ? "Welcome back" : null}
            {on && "Loading…"}
            {t("fine")} × · Fawn {"→"} {count}
          </div>
        );
      }`;
    expect(hardCodedStringsIn("x.tsx", source).map((found) => found.text)).toEqual([
      "Sign in",
      "Close the panel",
      "Hide it",
      "Photo of",
      "Welcome back",
      "Loading…",
    ]);
  });

  it("are none in web/src outside the files still waiting for conversion", async () => {
    const found = await hardCodedStrings(WEB_SRC, REPO);
    const unexpected = found
      .filter((entry) => !UNCONVERTED_UI_FILES.includes(entry.file))
      .map((entry) => `${entry.file}:${entry.line} "${entry.text}"`);
    expect(unexpected).toEqual([]);
    const stillHardCoded = new Set(found.map((entry) => entry.file));
    const converted = UNCONVERTED_UI_FILES.filter((file) => !stillHardCoded.has(file));
    // A converted file leaves the list, so it cannot slip back.
    expect(converted).toEqual([]);
  });
});
