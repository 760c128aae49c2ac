import { type ReactNode, useId, useState } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsAccountMessages } from "../../i18n/messages/settings-account.js";
import { ConfirmButton, Feedback, LoadState } from "../controls.js";
import { useAction, useResource } from "../use-resource.js";
import { createToken, deleteToken, listTokens } from "./account-api.js";

/** The user's API tokens: create (the token is shown once, with Copy), list, delete. */
export function ApiTokens(): ReactNode {
  const t = useT(settingsAccountMessages);
  const { resource, reload } = useResource(listTokens);
  const action = useAction();
  const [name, setName] = useState("");
  const [fresh, setFresh] = useState<{ name: string; token: string } | null>(null);
  const [copyNote, setCopyNote] = useState<string | null>(null);
  const id = useId();

  const copy = async (token: string): Promise<void> => {
    try {
      await navigator.clipboard.writeText(token);
      setCopyNote(t("copied"));
    } catch {
      setCopyNote(t("copyFailed"));
    }
  };

  return (
    <section className="settings-card settings-stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t("tokens")}</h3>
      <p className="small muted">{t("tokensIntro")}</p>
      <form
        className="settings-row"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            const created = await createToken(name.trim());
            setFresh({ name: created.name, token: created.token });
            setCopyNote(null);
            setName("");
            reload();
            return null;
          });
        }}
      >
        <label htmlFor={`${id}-name`}>{t("tokenName")}</label>
        <input
          id={`${id}-name`}
          maxLength={100}
          value={name}
          placeholder={t("tokenNamePlaceholder")}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="primary" disabled={action.busy}>
          {t("createToken")}
        </button>
      </form>
      {fresh && (
        <div className="settings-fresh-token" role="status">
          <p>{t("tokenCreated", { name: fresh.name })}</p>
          <div className="settings-row">
            <input
              className="settings-code settings-token-value"
              aria-label={t("tokenValue")}
              readOnly
              value={fresh.token}
              onFocus={(event) => event.target.select()}
            />
            <button type="button" onClick={() => void copy(fresh.token)}>
              {t("copy")}
            </button>
            <button type="button" onClick={() => setFresh(null)}>
              {t("dismiss")}
            </button>
          </div>
          {copyNote && <p className="small">{copyNote}</p>}
        </div>
      )}
      <Feedback error={action.error} note={action.note} />
      {resource.state !== "ready" ? (
        <LoadState failed={resource.state === "failed" ? resource : null} onRetry={reload} />
      ) : resource.data.length === 0 ? (
        <p className="muted">{t("tokensNone")}</p>
      ) : (
        <ul className="settings-list">
          {resource.data.map((token) => (
            <li key={token.id} className="settings-item settings-row">
              <span className="settings-item-title">{token.name}</span>
              <code className="small">{token.prefix}…</code>
              <span className="small muted">
                {t("created", { date: new Date(token.created_at).toLocaleString() })}
              </span>
              <span className="settings-row-end">
                <ConfirmButton
                  label={t("deleteToken")}
                  action={t("deleteAction", { name: token.name })}
                  disabled={action.busy}
                  onConfirm={() =>
                    void action.run(async () => {
                      await deleteToken(token.id);
                      if (fresh?.name === token.name) setFresh(null);
                      reload();
                      return t("tokenDeleted", { name: token.name });
                    })
                  }
                />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
