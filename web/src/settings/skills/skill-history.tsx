import type { ReactNode } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsSkillsMessages } from "../../i18n/messages/settings-skills.js";
import { Feedback, LoadState } from "../controls.js";
import { useAction, useResource } from "../use-resource.js";
import { restoreSkillVersion, type SkillHistoryEntry, skillHistory } from "./skills-api.js";

const ACTION_KEYS = {
  install: "actionInstall",
  create: "actionCreate",
  human_edit: "actionHumanEdit",
  rollback: "actionRollback",
} as const satisfies Record<SkillHistoryEntry["action"], string>;

/** A custom skill's versions, newest first; any earlier one can be restored (a new version). */
export function SkillHistory(props: {
  name: string;
  onRestored: (note: string) => void;
  onClose: () => void;
}): ReactNode {
  const t = useT(settingsSkillsMessages);
  const { resource, reload } = useResource(() => skillHistory(props.name));
  const action = useAction();
  const title = t("historyOf", { name: props.name });
  return (
    <section className="settings-card settings-stack" aria-label={title}>
      <h3>{title}</h3>
      {resource.state !== "ready" ? (
        <LoadState failed={resource.state === "failed" ? resource : null} onRetry={reload} />
      ) : resource.data.length === 0 ? (
        <p className="muted">{t("historyNone")}</p>
      ) : (
        <ol className="settings-list" reversed>
          {[...resource.data].reverse().map((entry, index) => (
            <li key={entry.version} className="settings-item settings-row">
              <span className="settings-item-title">
                {t("version", { version: entry.version })}
              </span>
              <span className="badge">{t(ACTION_KEYS[entry.action])}</span>
              <time className="small muted" dateTime={entry.ts}>
                {new Date(entry.ts).toLocaleString()}
              </time>
              {index === 0 ? (
                <span className="small muted settings-row-end">{t("current")}</span>
              ) : (
                <button
                  type="button"
                  className="small settings-row-end"
                  disabled={action.busy}
                  aria-label={`${t("restore")} (${t("version", { version: entry.version })})`}
                  onClick={() =>
                    void action.run(async () => {
                      await restoreSkillVersion(props.name, entry.version);
                      props.onRestored(t("restored", { name: props.name, version: entry.version }));
                      reload();
                      return null;
                    })
                  }
                >
                  {t("restore")}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      <Feedback error={action.error} />
      <div className="settings-actions">
        <button type="button" onClick={props.onClose}>
          {t("closeHistory")}
        </button>
      </div>
    </section>
  );
}
