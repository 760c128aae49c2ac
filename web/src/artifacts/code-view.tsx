import { type ReactNode, useEffect, useState } from "react";
import { highlightCode } from "./code-highlight.js";

/**
 * Source text in a code block, highlighted once highlight.js and the file's language have
 * loaded (plain until then, and for languages it does not bundle).
 */
export function CodeView({ text, language }: { text: string; language: string | null }): ReactNode {
  const [highlighted, setHighlighted] = useState<{ text: string; nodes: ReactNode[] } | null>(null);
  useEffect(() => {
    if (!language) return;
    let current = true;
    void highlightCode(text, language).then((nodes) => {
      if (current && nodes) setHighlighted({ text, nodes });
    });
    return () => {
      current = false;
    };
  }, [text, language]);
  const nodes = highlighted?.text === text ? highlighted.nodes : null;
  return (
    <pre className="code-block artifact-code" data-language={language ?? undefined}>
      <code className={nodes ? `hljs language-${language}` : undefined}>{nodes ?? text}</code>
    </pre>
  );
}
