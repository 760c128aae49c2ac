import type { ReactNode } from "react";
import type { ModelInfo } from "../api/types.js";
import { useT } from "../i18n/locale-context.js";
import { settingsMessages } from "../i18n/messages/settings.js";
import { AccountSection } from "./account/account-section.js";
import { AppearanceSection, LanguageSection } from "./appearance-section.js";
import { McpSection } from "./mcp/mcp-section.js";
import { MemorySection } from "./memory/memory-section.js";
import { ModelsSection } from "./models-section.js";
import { SkillsSection } from "./skills/skills-section.js";
import "./settings.css";

interface Props {
  /** The open section (`models`, `skills`, …); null or an unknown one opens the first. */
  section: string | null;
  models: ModelInfo[];
  onSection: (section: string) => void;
}

export const SETTINGS_SECTIONS = [
  "models",
  "skills",
  "mcp",
  "memory",
  "account",
  "appearance",
  "language",
] as const;

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

function sectionOf(section: string | null): SettingsSection {
  return SETTINGS_SECTIONS.find((known) => known === section) ?? "models";
}

const PANELS: Record<SettingsSection, () => ReactNode> = {
  models: () => <ModelsSection />,
  skills: () => <SkillsSection />,
  mcp: () => <McpSection />,
  memory: () => <MemorySection />,
  account: () => <AccountSection />,
  appearance: () => <AppearanceSection />,
  language: () => <LanguageSection />,
};

/** Settings: a list of sections beside (on a phone: above) the open one. */
export function SettingsPage(props: Props): ReactNode {
  const t = useT(settingsMessages);
  const open = sectionOf(props.section);
  const Panel = PANELS[open];
  return (
    <section className="page settings-page" aria-labelledby="settings-title">
      <h1 id="settings-title">{t("title")}</h1>
      <div className="settings-layout">
        <nav className="settings-nav" aria-label={t("sections")}>
          <ul>
            {SETTINGS_SECTIONS.map((section) => (
              <li key={section}>
                <a
                  href={`/settings/${section}`}
                  className="settings-nav-link"
                  aria-current={section === open ? "page" : undefined}
                  onClick={(event) => {
                    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
                      return;
                    event.preventDefault();
                    props.onSection(section);
                  }}
                >
                  {t(section)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <section className="settings-panel" aria-labelledby="settings-panel-title" key={open}>
          <h2 id="settings-panel-title">{t(open)}</h2>
          <Panel />
        </section>
      </div>
    </section>
  );
}
