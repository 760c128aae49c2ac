import type { HLJSApi, LanguageFn } from "highlight.js";
import { createElement, type ReactNode } from "react";

type LanguageModule = { default: LanguageFn };

/** The common languages, each its own chunk, fetched the first time a file of it is shown. */
const LANGUAGES: Readonly<Record<string, () => Promise<LanguageModule>>> = {
  javascript: () => import("highlight.js/lib/languages/javascript"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  python: () => import("highlight.js/lib/languages/python"),
  bash: () => import("highlight.js/lib/languages/bash"),
  json: () => import("highlight.js/lib/languages/json"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
  xml: () => import("highlight.js/lib/languages/xml"),
  css: () => import("highlight.js/lib/languages/css"),
  sql: () => import("highlight.js/lib/languages/sql"),
  go: () => import("highlight.js/lib/languages/go"),
  rust: () => import("highlight.js/lib/languages/rust"),
  java: () => import("highlight.js/lib/languages/java"),
  c: () => import("highlight.js/lib/languages/c"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  ini: () => import("highlight.js/lib/languages/ini"),
  diff: () => import("highlight.js/lib/languages/diff"),
};

/** Past this size a file is shown plain: highlighting it would hold the page up. */
const MAX_HIGHLIGHT_CHARS = 200_000;

let core: Promise<HLJSApi> | null = null;
const registered = new Map<string, Promise<void>>();

async function highlighterFor(language: string): Promise<HLJSApi | null> {
  const load = LANGUAGES[language];
  if (!load) return null;
  core ??= import("highlight.js/lib/core").then((module) => module.default);
  const hljs = await core;
  let ready = registered.get(language);
  if (!ready) {
    ready = load().then((module) => hljs.registerLanguage(language, module.default));
    registered.set(language, ready);
  }
  await ready;
  return hljs;
}

/**
 * `code` highlighted as `language`, as React elements, or null (an unknown language, a file too
 * large, a failed load: the caller keeps it plain). highlight.js answers HTML; it is parsed into
 * a detached document and rebuilt from its text and `hljs-*` classes only, so nothing the file
 * holds ever becomes markup in the page.
 */
export async function highlightCode(code: string, language: string): Promise<ReactNode[] | null> {
  if (code.length > MAX_HIGHLIGHT_CHARS) return null;
  const hljs = await highlighterFor(language).catch(() => null);
  if (!hljs) return null;
  const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  const parsed = new DOMParser().parseFromString(`<pre>${html}</pre>`, "text/html");
  const root = parsed.body.firstElementChild;
  return root ? childrenOf(root, "h") : null;
}

function childrenOf(node: Node, key: string): ReactNode[] {
  return Array.from(node.childNodes).map((child, index) => elementOf(child, `${key}.${index}`));
}

function elementOf(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node instanceof Element && node.tagName === "SPAN") {
    const className = (node.getAttribute("class") ?? "")
      .split(/\s+/)
      .filter((name) => /^hljs-[\w-]+$|^[\w-]+_$/.test(name))
      .join(" ");
    return createElement("span", { key, className }, ...childrenOf(node, key));
  }
  return node.textContent;
}
