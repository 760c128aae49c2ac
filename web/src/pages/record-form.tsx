import { type ReactNode, useId } from "react";
import type { ModelInfo } from "../api/types.js";

interface FormProps {
  title: string;
  /** The last complaint (a check or the server's refusal), shown above the buttons. */
  problem: string | null;
  /** An edit answers the last complaint: it goes until the next submit. */
  onEdited: () => void;
  onSubmit: () => Promise<void>;
  saving: boolean;
  /** The submit button's words (Create or Save); "Saving…" replaces them while saving. */
  submitLabel: string;
  savingLabel: string;
  cancelLabel: string;
  onCancel: () => void;
  children: ReactNode;
}

/** A record page's create or edit form: its heading, fields, complaint, Submit and Cancel. */
export function RecordForm(props: FormProps): ReactNode {
  const titleId = useId();
  return (
    <form
      className="record-form"
      noValidate
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault();
        void props.onSubmit();
      }}
      onChange={props.onEdited}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      {props.problem && (
        <p className="error" role="alert">
          {props.problem}
        </p>
      )}
      <div className="record-actions">
        <button type="submit" className="primary" disabled={props.saving}>
          {props.saving ? props.savingLabel : props.submitLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          {props.cancelLabel}
        </button>
      </div>
    </form>
  );
}

/** What a field hands its control: its id and the note that describes it. */
export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
}

interface FieldProps {
  id: string;
  label: string;
  /** A line under the control (a hint, or what is wrong with the value). */
  note?: string;
  noteIsError?: boolean;
  /** The note changes as the user types: screen readers read it out. */
  liveNote?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

/** A label, its control and an optional note, tied together by ids. */
export function Field({
  id,
  label,
  note,
  noteIsError = false,
  liveNote = false,
  className,
  children,
}: FieldProps): ReactNode {
  const noteId = `${id}-note`;
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label htmlFor={id}>{label}</label>
      {children(note === undefined ? { id } : { id, "aria-describedby": noteId })}
      {note !== undefined && (
        <span
          id={noteId}
          className={noteIsError ? "field-note error" : "field-note"}
          aria-live={liveNote ? "polite" : undefined}
        >
          {note}
        </span>
      )}
    </div>
  );
}

interface ModelFieldProps {
  label: string;
  /** The first choice: no model named, the server's default. */
  defaultLabel: string;
  models: readonly ModelInfo[];
  /** A model's name, or "" for the default. */
  value: string;
  onChange: (value: string) => void;
}

/** The model a record runs on: the server's default or one of the configured models. */
export function ModelField({
  label,
  defaultLabel,
  models,
  value,
  onChange,
}: ModelFieldProps): ReactNode {
  const id = useId();
  return (
    <Field id={id} label={label}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{defaultLabel}</option>
          {models.map((entry) => (
            <option key={entry.name} value={entry.name}>
              {entry.display_name ?? entry.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
