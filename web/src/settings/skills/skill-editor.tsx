import { type ReactNode, useId, useState } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsSkillsMessages } from "../../i18n/messages/settings-skills.js";
import { Feedback } from "../controls.js";
import { useAction } from "../use-resource.js";

/** A custom skill's SKILL.md in a text box; Save sends it whole (the server checks it). */
export function SkillEditor(props: {
  /** null: a new skill. */
  name: string | null;
  content: string;
  onSave: (content: string) => Promise<string>;
  onCancel: () => void;
}): ReactNode {
  const t = useT(settingsSkillsMessages);
  const [content, setContent] = useState(props.content);
  const action = useAction();
  const boxId = useId();
  const hintId = useId();
  const title = props.name === null ? t("editorNew") : t("editorEdit", { name: props.name });
  return (
    <form
      className="settings-card settings-stack"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(() => props.onSave(content));
      }}
    >
      <h3>{title}</h3>
      <label htmlFor={boxId}>{t("editorLabel")}</label>
      <textarea
        id={boxId}
        className="settings-code"
        aria-describedby={hintId}
        rows={14}
        spellCheck={false}
        value={content}
        onChange={(event) => setContent(event.target.value)}
      />
      <p id={hintId} className="small muted">
        {t("editorHint")}
      </p>
      <Feedback error={action.error} />
      <div className="settings-actions">
        <button type="submit" className="primary" disabled={action.busy}>
          {action.busy ? t("saving") : t("save")}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
