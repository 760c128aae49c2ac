import { type ReactNode, useEffect, useId, useState } from "react";
import type { ModelInfo } from "../api/types.js";
import type { Translate } from "../i18n/locale-context.js";
import type { agentsMessages } from "../i18n/messages/agents.js";
import { useErrorText } from "../i18n/use-error-text.js";
import { Field, ModelField, RecordForm } from "../pages/record-form.js";
import {
  AGENT_NAME_PATTERN,
  type Agent,
  type AgentFields,
  BUILT_IN_TOOL_GROUPS,
  checkAgentName,
} from "./agents-api.js";
import { ChoiceFieldset } from "./choice-fieldset.js";
import { draftOf, ModelSettingsFields, settingsOf } from "./model-settings-fields.js";

type AgentsKey = keyof (typeof agentsMessages)["en"];

interface Props {
  /** The agent being edited; null creates one. */
  agent: Agent | null;
  models: ModelInfo[];
  skills: string[];
  t: Translate<AgentsKey>;
  onSubmit: (name: string, fields: AgentFields) => Promise<void>;
  onCancel: () => void;
}

type NameState = "idle" | "checking" | "free" | "taken" | "invalid";

/** Create or edit an agent; the name is checked with the server while it is typed. */
export function AgentForm({ agent, models, skills, t, onSubmit, onCancel }: Props): ReactNode {
  const id = useId();
  const sayError = useErrorText();
  const [name, setName] = useState(agent?.name ?? "");
  const [nameState, setNameState] = useState<NameState>("idle");
  const [description, setDescription] = useState(agent?.description ?? "");
  const [model, setModel] = useState(agent?.model ?? "");
  const [soul, setSoul] = useState(agent?.soul ?? "");
  const [allTools, setAllTools] = useState(agent?.tool_groups == null);
  const known: readonly string[] = BUILT_IN_TOOL_GROUPS;
  const [groups, setGroups] = useState<string[]>(
    (agent?.tool_groups ?? []).filter((g) => known.includes(g)),
  );
  const [otherGroups, setOtherGroups] = useState(
    (agent?.tool_groups ?? []).filter((g) => !known.includes(g)).join(", "),
  );
  const [allSkills, setAllSkills] = useState(agent?.skills == null);
  const [pickedSkills, setPickedSkills] = useState<string[]>(agent?.skills ?? []);
  const [settings, setSettings] = useState(() =>
    draftOf(
      agent?.model_settings ?? null,
      agent?.thinking_enabled ?? null,
      agent?.reasoning_effort ?? null,
    ),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const creating = agent === null;

  useEffect(() => {
    if (!creating || name === "") {
      setNameState("idle");
      return;
    }
    if (!AGENT_NAME_PATTERN.test(name)) {
      setNameState("invalid");
      return;
    }
    setNameState("checking");
    let current = true;
    const timer = window.setTimeout(() => {
      checkAgentName(name)
        .then((answer) => {
          if (current) setNameState(answer.available ? "free" : "taken");
        })
        .catch(() => {
          // The server decides on submit; an unanswered check blocks nothing.
          if (current) setNameState("idle");
        });
    }, 250);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [creating, name]);

  const toolGroups = (): string[] | null => {
    if (allTools) return null;
    const extra = otherGroups
      .split(",")
      .map((group) => group.trim())
      .filter((group) => group !== "");
    return [...new Set([...groups, ...extra])];
  };

  const submit = async (): Promise<void> => {
    setProblem(null);
    if (creating && name.trim() === "") return setProblem(t("nameRequired"));
    if (creating && !AGENT_NAME_PATTERN.test(name)) return setProblem(t("nameInvalid"));
    if (creating && nameState === "taken")
      return setProblem(t("nameTaken", { name: name.toLowerCase() }));
    const chosenGroups = toolGroups();
    if (chosenGroups !== null && chosenGroups.length === 0) return setProblem(t("toolGroupsEmpty"));
    const modelSettings = settingsOf(settings);
    if ("problem" in modelSettings) return setProblem(t(modelSettings.problem));
    setSaving(true);
    try {
      await onSubmit(agent?.name ?? name, {
        ...modelSettings,
        description: description.trim(),
        model: model || null,
        tool_groups: chosenGroups,
        skills: allSkills ? null : pickedSkills,
        soul,
      });
    } catch (caught) {
      setProblem(`${t("saveFailed")} ${sayError(caught).text}`);
    } finally {
      setSaving(false);
    }
  };

  const nameNote =
    nameState === "invalid"
      ? t("nameInvalid")
      : nameState === "taken"
        ? t("nameTaken", { name: name.toLowerCase() })
        : nameState === "free"
          ? t("nameFree", { name: name.toLowerCase() })
          : nameState === "checking"
            ? t("nameChecking")
            : t("nameHint");
  const nameWrong = nameState === "invalid" || nameState === "taken";

  return (
    <RecordForm
      title={creating ? t("formCreateTitle") : t("formEditTitle", { name: agent.name })}
      problem={problem}
      onEdited={() => setProblem(null)}
      onSubmit={submit}
      saving={saving}
      submitLabel={creating ? t("create") : t("save")}
      savingLabel={t("saving")}
      cancelLabel={t("cancel")}
      onCancel={onCancel}
    >
      {creating && (
        <Field id={`${id}-name`} label={t("name")} note={nameNote} noteIsError={nameWrong} liveNote>
          {(control) => (
            <input
              {...control}
              value={name}
              maxLength={64}
              autoComplete="off"
              aria-invalid={nameWrong}
              onChange={(event) => setName(event.target.value.trim())}
            />
          )}
        </Field>
      )}
      <Field id={`${id}-description`} label={t("description")}>
        {(control) => (
          <input
            {...control}
            value={description}
            maxLength={2000}
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </Field>
      <ModelField
        label={t("modelLabel")}
        defaultLabel={t("modelDefault")}
        models={models}
        value={model}
        onChange={setModel}
      />
      <ModelSettingsFields id={id} draft={settings} onChange={setSettings} t={t} />
      <Field id={`${id}-soul`} label={t("soul")} note={t("soulHint")}>
        {(control) => (
          <textarea
            {...control}
            value={soul}
            rows={6}
            onChange={(event) => setSoul(event.target.value)}
          />
        )}
      </Field>
      <ChoiceFieldset
        name={`${id}-tools`}
        legend={t("toolsLabel")}
        allLabel={t("toolGroupsAll")}
        pickLabel={t("toolGroupsPick")}
        all={allTools}
        onAll={setAllTools}
        options={BUILT_IN_TOOL_GROUPS}
        picked={groups}
        onPicked={setGroups}
        renderOption={(group) => <code>{group}</code>}
      >
        <Field id={`${id}-toolGroupsOther`} label={t("toolGroupsOther")}>
          {(control) => (
            <input
              {...control}
              value={otherGroups}
              onChange={(event) => setOtherGroups(event.target.value)}
            />
          )}
        </Field>
      </ChoiceFieldset>
      <ChoiceFieldset
        name={`${id}-skills`}
        legend={t("skillsLabel")}
        allLabel={t("skillsEvery")}
        pickLabel={t("skillsPick")}
        all={allSkills}
        onAll={setAllSkills}
        options={skills}
        picked={pickedSkills}
        onPicked={setPickedSkills}
        emptyNote={t("skillsNoneFound")}
      />
    </RecordForm>
  );
}
