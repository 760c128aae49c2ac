import { type ReactNode, useId, useState } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsAccountMessages } from "../../i18n/messages/settings-account.js";
import { Feedback } from "../controls.js";
import { useAction } from "../use-resource.js";
import { changePassword } from "./account-api.js";

/** Current password, the new one twice; the server ends the other sessions. */
export function PasswordForm(): ReactNode {
  const t = useT(settingsAccountMessages);
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const action = useAction();
  const id = useId();
  return (
    <form
      className="settings-card settings-stack"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          if (next.length < 8) throw new Error(t("passwordShort"));
          if (next !== again) throw new Error(t("passwordsDiffer"));
          await changePassword(current, next);
          setCurrent("");
          setNext("");
          setAgain("");
          return t("passwordChanged");
        });
      }}
    >
      <h3 id={`${id}-title`}>{t("password")}</h3>
      <div className="settings-fields">
        <label htmlFor={`${id}-current`}>{t("currentPassword")}</label>
        <input
          id={`${id}-current`}
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
        />
        <label htmlFor={`${id}-new`}>{t("newPassword")}</label>
        <input
          id={`${id}-new`}
          type="password"
          autoComplete="new-password"
          required
          aria-describedby={`${id}-hint`}
          value={next}
          onChange={(event) => setNext(event.target.value)}
        />
        <label htmlFor={`${id}-again`}>{t("repeatPassword")}</label>
        <input
          id={`${id}-again`}
          type="password"
          autoComplete="new-password"
          required
          value={again}
          onChange={(event) => setAgain(event.target.value)}
        />
      </div>
      <p id={`${id}-hint`} className="small muted">
        {t("passwordHint")}
      </p>
      <Feedback error={action.error} note={action.note} />
      <div className="settings-actions">
        <button type="submit" className="primary" disabled={action.busy}>
          {t("changePassword")}
        </button>
      </div>
    </form>
  );
}
