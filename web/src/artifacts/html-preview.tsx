import { type ReactNode, useState } from "react";
import { fileName } from "./preview-kind.js";

/**
 * Rendered in an iframe with `sandbox="allow-scripts"` and no `allow-same-origin`: the page's
 * scripts run in an opaque origin, so they cannot read the workspace, its cookies or its API,
 * navigate the workspace or open windows.
 */
export function HtmlPreview({ path, html }: { path: string; html: string }): ReactNode {
  const [source, setSource] = useState(false);
  return (
    <>
      <div className="preview-tabs">
        <button type="button" aria-pressed={!source} onClick={() => setSource(false)}>
          Preview
        </button>
        <button type="button" aria-pressed={source} onClick={() => setSource(true)}>
          Source
        </button>
      </div>
      {source ? (
        <pre className="code-block">
          <code>{html}</code>
        </pre>
      ) : (
        <iframe
          className="html-preview"
          title={`Preview of ${fileName(path)}`}
          sandbox="allow-scripts"
          srcDoc={html}
        />
      )}
    </>
  );
}
