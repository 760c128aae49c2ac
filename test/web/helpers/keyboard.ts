import type { Page } from "playwright-core";

/** What has the keyboard focus: its tag, accessible-ish name and role. */
export interface Focused {
  tag: string;
  name: string;
  role: string | null;
}

/** Runs in the page (a string: this file is type-checked without the DOM library). */
const FOCUSED = `(() => {
  const element = document.activeElement;
  if (!(element instanceof HTMLElement)) return { tag: "", name: "", role: null };
  const labelled = element.getAttribute("aria-labelledby");
  const name =
    element.getAttribute("aria-label") ||
    (labelled ? document.getElementById(labelled)?.textContent : "") ||
    element.textContent ||
    "";
  return { tag: element.tagName.toLowerCase(), name: name.trim(), role: element.getAttribute("role") };
})()`;

export async function focused(page: Page): Promise<Focused> {
  return (await page.evaluate(FOCUSED)) as Focused;
}

/**
 * Presses Tab (Shift+Tab when `backwards`) until the focused element has the accessible name
 * `name`; fails after `limit` presses. Keyboard only: the way a user without a mouse moves.
 */
export async function tabTo(
  page: Page,
  name: string,
  { backwards = false, limit = 80 }: { backwards?: boolean; limit?: number } = {},
): Promise<void> {
  const seen: string[] = [];
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    const now = await focused(page);
    if (now.name === name) return;
    seen.push(`${now.tag}:${now.name.slice(0, 30)}`);
  }
  throw new Error(`Tab never reached "${name}"; focus went through: ${seen.join(" | ")}`);
}
