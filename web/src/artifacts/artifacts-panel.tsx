import { type ReactNode, useState } from "react";
import { artifactUrl } from "../api/http.js";
import { ArtifactPreview } from "./artifact-preview.js";
import { fileName } from "./preview-kind.js";

interface Props {
  threadId: string;
  artifacts: string[];
  streaming: boolean;
  onClose: () => void;
}

/** The thread's delivered files (`values.artifacts`): download links and a text/Markdown preview. */
export function ArtifactsPanel({ threadId, artifacts, streaming, onClose }: Props): ReactNode {
  const [selected, setSelected] = useState<string | null>(null);
  const current = selected && artifacts.includes(selected) ? selected : null;

  return (
    <aside className="artifacts" aria-label="Artifacts">
      <div className="artifacts-head">
        <h2>Artifacts</h2>
        <button
          type="button"
          className="icon small"
          aria-label="Close the artifacts panel"
          onClick={onClose}
        >
          ×
        </button>
      </div>
      <ul className="artifact-list">
        {artifacts.map((path) => (
          <li key={path} className={path === current ? "artifact active" : "artifact"}>
            <button
              type="button"
              className="artifact-open"
              title={path}
              onClick={() => setSelected(path === current ? null : path)}
            >
              {fileName(path)}
            </button>
            <a
              className="download"
              href={artifactUrl(threadId, path, true)}
              download={fileName(path)}
            >
              Download
            </a>
          </li>
        ))}
      </ul>
      {current && (
        <ArtifactPreview key={current} threadId={threadId} path={current} streaming={streaming} />
      )}
    </aside>
  );
}
