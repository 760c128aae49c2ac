import { type ReactNode, useId, useRef, useState } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsSkillsMessages } from "../../i18n/messages/settings-skills.js";
import { ConfirmButton, Feedback, LoadState, Switch } from "../controls.js";
import { useAction, useResource } from "../use-resource.js";
import { SkillEditor } from "./skill-editor.js";
import { SkillHistory } from "./skill-history.js";
import {
  createCustomSkill,
  deleteCustomSkill,
  installSkillArchive,
  listSkills,
  NEW_SKILL_TEMPLATE,
  readCustomSkill,
  type Skill,
  switchSkill,
  updateCustomSkill,
} from "./skills-api.js";

type Open =
  | { kind: "none" }
  | { kind: "editor"; name: string | null; content: string }
  | { kind: "history"; name: string };

/** The caller's skills: switch each on or off, install an archive, write and edit custom ones. */
export function SkillsSection(): ReactNode {
  const t = useT(settingsSkillsMessages);
  const { resource, reload } = useResource(listSkills);
  const action = useAction();
  const [open, setOpen] = useState<Open>({ kind: "none" });
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();

  const [installing, setInstalling] = useState(false);
  const install = (file: File): void => {
    setInstalling(true);
    void action
      .run(async () => {
        const answer = await installSkillArchive(file);
        reload();
        return t("installed", { name: answer.skill_name });
      })
      .finally(() => setInstalling(false));
    if (fileInput.current) fileInput.current.value = "";
  };

  const saveEditor = async (name: string | null, content: string): Promise<string> => {
    const saved =
      name === null ? await createCustomSkill(content) : await updateCustomSkill(name, content);
    setOpen({ kind: "none" });
    reload();
    const note = t(name === null ? "created" : "saved", { name: saved.name });
    action.announce(note);
    return note;
  };

  const row = (skill: Skill): ReactNode => (
    <li key={skill.name} className="settings-item">
      <div className="settings-row">
        <span className="settings-item-title">{skill.name}</span>
        <span className="badge">
          {skill.category === "custom" ? t("kindCustom") : t("kindPublic")}
        </span>
        <span className="settings-row-end">
          <Switch
            label={t("enabledLabel", { name: skill.name })}
            checked={skill.enabled}
            disabled={action.busy}
            onChange={(enabled) =>
              void action.run(async () => {
                await switchSkill(skill.name, enabled);
                reload();
                return t(enabled ? "switchedOn" : "switchedOff", { name: skill.name });
              })
            }
          />
        </span>
      </div>
      {skill.description && <p className="settings-item-text">{skill.description}</p>}
      {skill.editable && (
        <div className="settings-actions">
          <button
            type="button"
            className="small"
            aria-label={`${t("edit")} ${skill.name}`}
            onClick={() =>
              void action.run(async () => {
                const stored = await readCustomSkill(skill.name);
                setOpen({ kind: "editor", name: skill.name, content: stored.content });
                return null;
              })
            }
          >
            {t("edit")}
          </button>
          <button
            type="button"
            className="small"
            aria-label={`${t("history")} ${skill.name}`}
            onClick={() => setOpen({ kind: "history", name: skill.name })}
          >
            {t("history")}
          </button>
          <ConfirmButton
            label={t("delete")}
            action={t("deleteAction", { name: skill.name })}
            disabled={action.busy}
            onConfirm={() =>
              void action.run(async () => {
                await deleteCustomSkill(skill.name);
                if (open.kind !== "none" && open.name === skill.name) setOpen({ kind: "none" });
                reload();
                return t("deleted", { name: skill.name });
              })
            }
          />
        </div>
      )}
    </li>
  );

  const skills = resource.state === "ready" ? resource.data : [];
  const custom = skills.filter((skill) => skill.category === "custom");
  const shipped = skills.filter((skill) => skill.category !== "custom");

  return (
    <div className="settings-stack">
      <p className="muted">{t("intro")}</p>
      <div className="settings-actions">
        <input
          id={fileId}
          ref={fileInput}
          className="settings-file-input"
          type="file"
          accept=".skill,.zip,application/zip"
          disabled={action.busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) install(file);
          }}
        />
        <label htmlFor={fileId} className="settings-file-button">
          {installing ? t("installing") : t("install")}
        </label>
        <button
          type="button"
          onClick={() => setOpen({ kind: "editor", name: null, content: NEW_SKILL_TEMPLATE })}
        >
          {t("newSkill")}
        </button>
      </div>
      <Feedback error={action.error} note={action.note} />
      {open.kind === "editor" && (
        <SkillEditor
          key={open.name ?? "new"}
          name={open.name}
          content={open.content}
          onSave={(content) => saveEditor(open.name, content)}
          onCancel={() => setOpen({ kind: "none" })}
        />
      )}
      {open.kind === "history" && (
        <SkillHistory
          key={open.name}
          name={open.name}
          onRestored={(note) => {
            reload();
            action.announce(note);
          }}
          onClose={() => setOpen({ kind: "none" })}
        />
      )}
      {resource.state !== "ready" ? (
        <LoadState failed={resource.state === "failed" ? resource : null} onRetry={reload} />
      ) : (
        <>
          <h3>{t("custom")}</h3>
          {custom.length === 0 ? (
            <p className="muted">{t("customNone")}</p>
          ) : (
            <ul className="settings-list">{custom.map(row)}</ul>
          )}
          <h3>{t("public")}</h3>
          {shipped.length === 0 ? (
            <p className="muted">{t("publicNone")}</p>
          ) : (
            <ul className="settings-list">{shipped.map(row)}</ul>
          )}
        </>
      )}
    </div>
  );
}
