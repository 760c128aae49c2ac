import type { ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { artifactsMessages } from "../i18n/messages/artifacts.js";
import { ArtifactToolbar } from "./artifact-toolbar.js";
import { CodeView } from "./code-view.js";
import type { FileWrite } from "./live-writes.js";
import { fileName } from "./preview-kind.js";

/**
 * A file as the run writes it: the `write_file` call's text so far, plain (highlighting every
 * streamed piece would cost more than it shows). A finished write of a file the artifact route
 * does not serve (the workspace) stays here, as the text the run wrote.
 */
export function LiveWritePreview({
  threadId,
  write,
  onClose,
}: {
  threadId: string;
  write: FileWrite;
  onClose: () => void;
}): ReactNode {
  const t = useT(artifactsMessages);
  return (
    <div
      className="artifact-preview live-write"
      data-testid="artifact-preview"
      data-live={write.done ? "done" : "writing"}
    >
      <ArtifactToolbar
        threadId={threadId}
        path={write.path}
        text={write.content}
        live
        onClose={onClose}
      />
      <p className="muted live-note" aria-live="polite">
        {write.done ? t("writtenOutside") : t("writingFile", { name: fileName(write.path) })}
      </p>
      <CodeView text={write.content} language={null} />
    </div>
  );
}
