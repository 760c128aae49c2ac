import { type ReactNode, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { artifactsMessages } from "../i18n/messages/artifacts.js";
import { CodeView } from "./code-view.js";
import { fileName } from "./preview-kind.js";

/**
 * Rendered in an iframe with `sandbox="allow-scripts"` and no `allow-same-origin`: the page's
 * scripts run in an opaque origin, so they cannot read the workspace, its cookies or its API,
 * navigate the workspace or open windows.
 */
export function HtmlPreview({ path, html }: { path: string; html: string }): ReactNode {
  const t = useT(artifactsMessages);
  const [source, setSource] = useState(false);
  return (
    <>
      <div className="preview-tabs">
        <button type="button" aria-pressed={!source} onClick={() => setSource(false)}>
          {t("preview")}
        </button>
        <button type="button" aria-pressed={source} onClick={() => setSource(true)}>
          {t("source")}
        </button>
      </div>
      {source ? (
        <CodeView text={html} language="xml" />
      ) : (
        <iframe
          className="html-preview"
          title={t("previewOf", { name: fileName(path) })}
          sandbox="allow-scripts"
          srcDoc={html}
        />
      )}
    </>
  );
}
