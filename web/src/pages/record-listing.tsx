import { Fragment, type ReactNode } from "react";

/** A record page's list: loading, its records, off on this server, or failed to load. */
export type Listing<T> =
  | { state: "loading" }
  | { state: "ready"; items: T[] }
  /** `detail`: the server's sentence naming what turns it on, when it sent one. */
  | { state: "disabled"; detail: string | null }
  | { state: "failed"; detail: string };

/** What a record page's form shows: nothing, a new record, or one being edited. */
export type Editing<T> = { mode: "none" } | { mode: "create" } | { mode: "edit"; record: T };

interface Props<T> {
  listing: Listing<T>;
  text: { disabled: string; loadFailed: string; empty: string };
  /** The open create or edit form: above the list, and instead of the empty note. */
  form: ReactNode;
  keyOf: (item: T) => string;
  renderItem: (item: T) => ReactNode;
}

/** The list's state as the page shows it, the open form, then the records as cards. */
export function RecordListing<T>({ listing, text, form, keyOf, renderItem }: Props<T>): ReactNode {
  return (
    <>
      {listing.state === "loading" && <p className="muted">…</p>}
      {listing.state === "disabled" && (
        <div className="notice-card" role="status">
          <p>{text.disabled}</p>
          {listing.detail && <p className="muted small">{listing.detail}</p>}
        </div>
      )}
      {listing.state === "failed" && (
        <p className="error" role="alert">
          {text.loadFailed} {listing.detail}
        </p>
      )}
      {form}
      {listing.state === "ready" &&
        (listing.items.length === 0 ? (
          !form && <p className="muted">{text.empty}</p>
        ) : (
          <ul className="record-list">
            {listing.items.map((item) => (
              <Fragment key={keyOf(item)}>{renderItem(item)}</Fragment>
            ))}
          </ul>
        ))}
    </>
  );
}
