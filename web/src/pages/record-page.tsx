import { type ReactNode, useId } from "react";
import "./record-page.css";

/** A sentence about the last action: what was done, or why it failed. */
export interface PageNotice {
  text: string;
  error: boolean;
}

interface Props {
  /** The page's own class, beside the shared `record-page`. */
  className: string;
  title: string;
  /** Buttons in the header, after the title. */
  actions: ReactNode;
  intro: string;
  notice: PageNotice | null;
  children: ReactNode;
}

/** A page of records (agents, scheduled tasks): header with its actions, intro, last notice. */
export function RecordPage({
  className,
  title,
  actions,
  intro,
  notice,
  children,
}: Props): ReactNode {
  const titleId = useId();
  return (
    <section className={`page record-page ${className}`} aria-labelledby={titleId}>
      <header className="page-header">
        <h1 id={titleId}>{title}</h1>
        {actions}
      </header>
      <div className="page-body">
        <p className="muted page-intro">{intro}</p>
        {notice && (
          <p className={notice.error ? "error" : "page-notice"} role="status">
            {notice.text}
          </p>
        )}
        {children}
      </div>
    </section>
  );
}
