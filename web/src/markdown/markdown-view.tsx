import { type ReactNode, useMemo } from "react";
import { type Block, type Inline, parseMarkdown } from "./markdown-parse.js";

/** Renders model Markdown as React elements (text is escaped by React; no raw HTML ever). */
export function MarkdownView({ text }: { text: string }): ReactNode {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <div className="markdown">{renderBlocks(blocks)}</div>;
}

function renderBlocks(blocks: Block[]): ReactNode[] {
  return blocks.map((block, index) => renderBlock(block, String(index)));
}

function renderBlock(block: Block, key: string): ReactNode {
  switch (block.kind) {
    case "heading": {
      const level = Math.min(6, Math.max(1, block.level));
      const Tag = `h${level}` as "h1" | "h2" | "h3" | "h4" | "h5" | "h6";
      return <Tag key={key}>{renderInline(block.children)}</Tag>;
    }
    case "paragraph":
      return <p key={key}>{renderInline(block.children)}</p>;
    case "code":
      return (
        <pre key={key} className="code-block" data-language={block.language || undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case "list": {
      const items = block.items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity but their place
        <li key={index}>{renderInline(item)}</li>
      ));
      return block.ordered ? (
        <ol key={key} start={block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case "quote":
      return <blockquote key={key}>{renderBlocks(block.children)}</blockquote>;
    case "table":
      return (
        <div key={key} className="table-scroll">
          <table>
            <thead>
              <tr>
                {block.header.map((cell, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                  <th key={index}>{renderInline(cell)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
                <tr key={rowIndex}>
                  {row.map((cell, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                    <td key={index}>{renderInline(cell)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "rule":
      return <hr key={key} />;
  }
}

function renderInline(spans: Inline[]): ReactNode[] {
  return spans.map((span, index) => {
    switch (span.kind) {
      case "text":
        return span.text;
      case "code":
        // biome-ignore lint/suspicious/noArrayIndexKey: spans are positional
        return <code key={index}>{span.text}</code>;
      case "strong":
        // biome-ignore lint/suspicious/noArrayIndexKey: spans are positional
        return <strong key={index}>{renderInline(span.children)}</strong>;
      case "em":
        // biome-ignore lint/suspicious/noArrayIndexKey: spans are positional
        return <em key={index}>{renderInline(span.children)}</em>;
      case "link":
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: spans are positional
          <a key={index} href={span.href} target="_blank" rel="noopener noreferrer">
            {renderInline(span.children)}
          </a>
        );
    }
    return null;
  });
}
