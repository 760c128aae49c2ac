import { truncateText } from "./page-content.js";

/** What web_fetch answers for a page a provider read: its title, where it came from, the text. */
export function describeProviderPage(page: {
  url: URL;
  via: string;
  title?: string | undefined;
  text: string;
  maxChars: number;
  /** A line after the source, e.g. that the site answered an error status. */
  note?: string | undefined;
}): string {
  const lines: string[] = [];
  const title = page.title?.trim();
  if (title) lines.push(`# ${title}`, "");
  lines.push(`Source: ${page.url.href} (via ${page.via})`);
  if (page.note) lines.push(page.note);
  const content = page.text.trim() || "(The page has no readable text.)";
  return `${lines.join("\n")}\n\n${truncateText(content, page.maxChars)}`;
}
