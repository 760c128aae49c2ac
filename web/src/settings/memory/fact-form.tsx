import { type ReactNode, useId, useState } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsMemoryMessages } from "../../i18n/messages/settings-memory.js";
import { Feedback } from "../controls.js";
import { useAction } from "../use-resource.js";
import { FACT_CATEGORIES, type FactFields } from "./memory-api.js";

/** Content, category (a known one or any label) and confidence of a fact, new or edited. */
export function FactForm(props: {
  title: string;
  initial: FactFields;
  onSave: (fact: FactFields) => Promise<string>;
  onCancel: () => void;
}): ReactNode {
  const t = useT(settingsMemoryMessages);
  const [content, setContent] = useState(props.initial.content);
  const [category, setCategory] = useState(props.initial.category);
  const [confidence, setConfidence] = useState(String(props.initial.confidence));
  const action = useAction();
  const id = useId();
  return (
    <form
      className="settings-card settings-stack"
      aria-label={props.title}
      // Our own sentences (in the page's language) instead of the browser's bubbles.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(() => {
          if (content.trim() === "") throw new Error(t("contentMissing"));
          const value = Number(confidence);
          if (confidence.trim() === "" || !(value >= 0 && value <= 1))
            throw new Error(t("confidenceRange"));
          return props.onSave({
            content: content.trim(),
            category: category.trim(),
            confidence: value,
          });
        });
      }}
    >
      <h3>{props.title}</h3>
      <div className="settings-fields">
        <label htmlFor={`${id}-content`}>{t("content")}</label>
        <textarea
          id={`${id}-content`}
          rows={3}
          required
          maxLength={2000}
          value={content}
          onChange={(event) => setContent(event.target.value)}
        />
        <label htmlFor={`${id}-category`}>{t("category")}</label>
        <input
          id={`${id}-category`}
          list={`${id}-categories`}
          maxLength={40}
          value={category}
          onChange={(event) => setCategory(event.target.value)}
        />
        <datalist id={`${id}-categories`}>
          {FACT_CATEGORIES.map((known) => (
            <option key={known} value={known} />
          ))}
        </datalist>
        <label htmlFor={`${id}-confidence`}>{t("confidence")}</label>
        <input
          id={`${id}-confidence`}
          type="number"
          min={0}
          max={1}
          step={0.05}
          value={confidence}
          onChange={(event) => setConfidence(event.target.value)}
        />
      </div>
      <Feedback error={action.error} />
      <div className="settings-actions">
        <button type="submit" className="primary" disabled={action.busy}>
          {t("save")}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
