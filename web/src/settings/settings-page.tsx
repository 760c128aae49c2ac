import type { ReactNode } from "react";
import type { ModelInfo } from "../api/types.js";
import { useT } from "../i18n/locale-context.js";
import { commonMessages } from "../i18n/messages/common.js";

interface Props {
  /** The open section (`models`, `skills`, …); null opens the first. */
  section: string | null;
  models: ModelInfo[];
  onSection: (section: string) => void;
}

/** Settings: one section at a time, chosen from a list. */
export function SettingsPage(_props: Props): ReactNode {
  const t = useT(commonMessages);
  return (
    <section className="page settings-page" aria-labelledby="settings-title">
      <h1 id="settings-title">{t("settings")}</h1>
    </section>
  );
}
