import type { ReactNode } from "react";

interface Props {
  /** Names the radio group (unique in the page). */
  name: string;
  legend: string;
  allLabel: string;
  pickLabel: string;
  /** True: everything is allowed (the API's `null`); false: only `picked`. */
  all: boolean;
  onAll: (all: boolean) => void;
  options: readonly string[];
  picked: readonly string[];
  onPicked: (picked: string[]) => void;
  /** Shown instead of the options when there are none. */
  emptyNote?: string;
  /** How an option reads (e.g. a tool group as code). */
  renderOption?: (option: string) => ReactNode;
  /** More inputs under the options (e.g. names typed by hand). */
  children?: ReactNode;
}

/** "Everything" or "only these": a radio pair and, for the second, a checkbox per option. */
export function ChoiceFieldset(props: Props): ReactNode {
  const { name, all, onAll, options, picked, onPicked } = props;
  return (
    <fieldset className="field">
      <legend>{props.legend}</legend>
      <label className="check">
        <input type="radio" name={name} checked={all} onChange={() => onAll(true)} />
        {props.allLabel}
      </label>
      <label className="check">
        <input type="radio" name={name} checked={!all} onChange={() => onAll(false)} />
        {props.pickLabel}
      </label>
      {!all && (
        <div className="record-choices">
          {options.length === 0 && props.emptyNote && (
            <p className="field-note">{props.emptyNote}</p>
          )}
          {options.map((option) => (
            <label key={option} className="check">
              <input
                type="checkbox"
                checked={picked.includes(option)}
                onChange={(event) =>
                  onPicked(
                    event.target.checked
                      ? [...picked, option]
                      : picked.filter((entry) => entry !== option),
                  )
                }
              />
              {props.renderOption ? props.renderOption(option) : option}
            </label>
          ))}
          {props.children}
        </div>
      )}
    </fieldset>
  );
}
