import { z } from "zod";

/** The attribute each snapshot stamps on the elements it lists; actions select by it. */
export const REF_ATTRIBUTE = "data-fawn-ref";
const MAX_ELEMENTS = 200;
const MAX_NAME_CHARS = 120;
/** Visible text shown under the element list (browser_get_text reads more). */
export const EXCERPT_CHARS = 1500;

/**
 * Runs in the page: drops the stamps of an earlier snapshot (so a stale hidden node cannot
 * answer a new ref), then numbers the visible interactive elements in document order.
 */
export const SNAPSHOT_SCRIPT = `(() => {
  const attr = ${JSON.stringify(REF_ATTRIBUTE)};
  for (const old of document.querySelectorAll("[" + attr + "]")) old.removeAttribute(attr);
  const picked = document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), textarea, select, summary, [role=button], [role=link], [role=tab], [role=checkbox], [role=menuitem], [onclick], [contenteditable=true]"
  );
  const elements = [];
  for (const el of picked) {
    if (elements.length >= ${MAX_ELEMENTS}) break;
    const box = el.getBoundingClientRect();
    const style = window.getComputedStyle(el);
    if (box.width <= 0 || box.height <= 0 || style.visibility === "hidden" || style.display === "none") continue;
    const ref = elements.length + 1;
    el.setAttribute(attr, String(ref));
    const label = el.getAttribute("aria-label") || el.getAttribute("placeholder") ||
      el.innerText || el.getAttribute("value") || el.getAttribute("name") || el.getAttribute("title") || "";
    elements.push({
      ref,
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute("role") || "",
      type: el.getAttribute("type") || "",
      name: label.replace(/\\s+/g, " ").trim().slice(0, ${MAX_NAME_CHARS + 1}),
    });
  }
  const text = (document.body ? document.body.innerText : "").replace(/\\n{3,}/g, "\\n\\n").trim();
  return { url: location.href, title: document.title, elements, text: text.slice(0, ${EXCERPT_CHARS + 1}) };
})()`;

const snapshotSchema = z.object({
  url: z.string(),
  title: z.string(),
  elements: z.array(
    z.object({
      ref: z.number().int(),
      tag: z.string(),
      role: z.string(),
      type: z.string(),
      name: z.string(),
    }),
  ),
  text: z.string(),
});

export type PageSnapshot = z.infer<typeof snapshotSchema>;

/** The page script's answer, checked (it runs in a page the model chose). */
export function parseSnapshot(value: unknown): PageSnapshot {
  return snapshotSchema.parse(value);
}

/** The snapshot as the model reads it: URL, title, `[ref] role: name` lines, a text excerpt. */
export function renderSnapshot(snapshot: PageSnapshot): string {
  const lines = [`URL: ${snapshot.url}`, `Title: ${snapshot.title}`, ""];
  if (snapshot.elements.length === 0) lines.push("No interactive elements detected.");
  else {
    lines.push("Interactive elements (address them by [ref] number):");
    for (const el of snapshot.elements) {
      const name =
        el.name.length > MAX_NAME_CHARS ? `${el.name.slice(0, MAX_NAME_CHARS)}…` : el.name;
      lines.push(
        `[${el.ref}] ${el.role || el.tag}${el.type ? ` type=${el.type}` : ""}: ${name || "(no text)"}`,
      );
    }
  }
  if (snapshot.text) {
    const cut = snapshot.text.length > EXCERPT_CHARS;
    lines.push(
      "",
      "Visible text (excerpt):",
      cut ? `${snapshot.text.slice(0, EXCERPT_CHARS)}…` : snapshot.text,
    );
  }
  return lines.join("\n");
}
