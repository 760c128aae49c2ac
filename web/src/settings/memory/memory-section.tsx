import { type ReactNode, useId, useRef, useState } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsMemoryMessages } from "../../i18n/messages/settings-memory.js";
import { ConfirmButton, Feedback, LoadState } from "../controls.js";
import { useAction, useResource } from "../use-resource.js";
import { FactForm } from "./fact-form.js";
import {
  addFact,
  changeFact,
  clearMemory,
  deleteFact,
  exportMemory,
  importMemory,
  type Memory,
  readMemory,
} from "./memory-api.js";

type Open = { kind: "none" } | { kind: "add" } | { kind: "edit"; id: string };

const SUMMARY_KEYS = [
  ["user", "workContext"],
  ["user", "personalContext"],
  ["user", "topOfMind"],
  ["history", "recentMonths"],
  ["history", "earlierContext"],
  ["history", "longTermBackground"],
] as const;

function summariesOf(memory: Memory): { key: (typeof SUMMARY_KEYS)[number][1]; text: string }[] {
  return SUMMARY_KEYS.map(([group, key]) => {
    const block: Record<string, { summary?: string }> = memory[group];
    return { key, text: block[key]?.summary?.trim() ?? "" };
  }).filter((entry) => entry.text !== "");
}

function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Summaries (read-only) and facts (add, edit, delete, search); export, import and clear. */
export function MemorySection(): ReactNode {
  const t = useT(settingsMemoryMessages);
  const { resource, reload, replace } = useResource(readMemory);
  const action = useAction();
  const [open, setOpen] = useState<Open>({ kind: "none" });
  const [query, setQuery] = useState("");
  const importInput = useRef<HTMLInputElement>(null);
  const ids = { search: useId(), import: useId() };

  if (resource.state !== "ready") {
    return <LoadState failed={resource.state === "failed" ? resource : null} onRetry={reload} />;
  }
  const memory = resource.data;
  const summaries = summariesOf(memory);
  const needle = query.trim().toLowerCase();
  const facts = memory.facts.filter(
    (fact) =>
      needle === "" ||
      fact.content.toLowerCase().includes(needle) ||
      fact.category.toLowerCase().includes(needle),
  );

  const importFile = (file: File): void => {
    void action.run(async () => {
      let document: unknown;
      try {
        document = JSON.parse(await file.text());
      } catch (error) {
        throw new Error(t("notJson", { reason: error instanceof Error ? error.message : "" }));
      }
      const stored = await importMemory(document);
      replace(stored);
      return t("imported", { count: stored.facts.length });
    });
    if (importInput.current) importInput.current.value = "";
  };

  return (
    <div className="settings-stack">
      <p className="muted">{t("intro")}</p>
      <div className="settings-actions">
        <button
          type="button"
          disabled={action.busy}
          onClick={() =>
            void action.run(async () => {
              download(await exportMemory(), "fawn-memory.json");
              return null;
            })
          }
        >
          {t("export")}
        </button>
        <input
          id={ids.import}
          ref={importInput}
          className="settings-file-input"
          type="file"
          accept=".json,application/json"
          aria-describedby={`${ids.import}-hint`}
          disabled={action.busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) importFile(file);
          }}
        />
        <label htmlFor={ids.import} className="settings-file-button">
          {t("import")}
        </label>
        <ConfirmButton
          label={t("clear")}
          action={t("clearAction")}
          disabled={action.busy}
          onConfirm={() =>
            void action.run(async () => {
              replace(await clearMemory());
              setOpen({ kind: "none" });
              return t("cleared");
            })
          }
        />
      </div>
      <p id={`${ids.import}-hint`} className="small muted">
        {t("importHint")}
      </p>
      <Feedback error={action.error} note={action.note} />

      <h3>{t("summaries")}</h3>
      {summaries.length === 0 ? (
        <p className="muted">{t("summariesNone")}</p>
      ) : (
        <dl className="memory-summaries">
          {summaries.map((entry) => (
            <div key={entry.key}>
              <dt>{t(entry.key)}</dt>
              <dd>{entry.text}</dd>
            </div>
          ))}
        </dl>
      )}

      <div className="settings-row">
        <h3>{t("facts")}</h3>
        <span className="small muted">
          {memory.facts.length === 1
            ? t("factCountOne")
            : t("factCount", { count: memory.facts.length })}
        </span>
        <button type="button" className="settings-row-end" onClick={() => setOpen({ kind: "add" })}>
          {t("add")}
        </button>
      </div>
      {open.kind === "add" && (
        <FactForm
          title={t("add")}
          initial={{ content: "", category: "context", confidence: 0.5 }}
          onSave={async (fact) => {
            replace(await addFact(fact));
            setOpen({ kind: "none" });
            action.announce(t("added"));
            return t("added");
          }}
          onCancel={() => setOpen({ kind: "none" })}
        />
      )}
      {memory.facts.length > 0 && (
        <div className="settings-search">
          <label htmlFor={ids.search}>{t("search")}</label>
          <input
            id={ids.search}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
      )}
      {memory.facts.length === 0 ? (
        <p className="muted">{t("factsNone")}</p>
      ) : facts.length === 0 ? (
        <p className="muted">{t("noMatch", { query })}</p>
      ) : (
        <ul className="settings-list">
          {facts.map((fact) =>
            open.kind === "edit" && open.id === fact.id ? (
              <li key={fact.id}>
                <FactForm
                  title={t("edit")}
                  initial={fact}
                  onSave={async (changed) => {
                    replace(await changeFact(fact.id, changed));
                    setOpen({ kind: "none" });
                    action.announce(t("saved"));
                    return t("saved");
                  }}
                  onCancel={() => setOpen({ kind: "none" })}
                />
              </li>
            ) : (
              <li key={fact.id} className="settings-item memory-fact">
                <p className="settings-item-text">{fact.content}</p>
                <div className="settings-row small muted">
                  <span className="badge">{fact.category}</span>
                  <span>{t("confidenceValue", { value: fact.confidence })}</span>
                  <span>
                    {t("source")}:{" "}
                    {fact.source === "manual" ? t("sourceManual") : t("sourceThread")}
                  </span>
                  <span className="settings-row-end settings-actions">
                    <button
                      type="button"
                      className="small"
                      aria-label={`${t("edit")}: ${fact.content}`}
                      onClick={() => setOpen({ kind: "edit", id: fact.id })}
                    >
                      {t("edit")}
                    </button>
                    <ConfirmButton
                      label={t("delete")}
                      action={t("deleteAction")}
                      disabled={action.busy}
                      onConfirm={() =>
                        void action.run(async () => {
                          replace(await deleteFact(fact.id));
                          return t("deleted");
                        })
                      }
                    />
                  </span>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}
