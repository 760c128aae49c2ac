import { useMemo } from "react";
import { LANGUAGE_NAMES, LOCALES } from "../i18n/define-messages.js";
import { useLocale, useT } from "../i18n/locale-context.js";
import { commonMessages } from "../i18n/messages/common.js";
import { paletteMessages } from "../i18n/messages/shortcuts.js";
import type { Route } from "../routing.js";
import type { ThreadSummary } from "../threads/thread-list.js";
import type { PaletteCommand } from "./palette-command.js";

/** A theme switch the palette can offer (e.g. Settings' `useTheme()`); absent, no theme commands. */
export interface ThemeControl {
  current: string;
  choices: readonly { value: string; label: string }[];
  choose: (value: string) => void;
}

interface Options {
  go: (route: Route) => void;
  newChat: () => void;
  toggleSidebar: () => void;
  focusComposer: () => void;
  showShortcuts: () => void;
  teamsAvailable: boolean;
  threads: readonly ThreadSummary[];
  theme?: ThemeControl;
}

/** The palette's commands: actions, pages, other languages, themes, then the chats by title. */
export function useWorkspaceCommands(options: Options): PaletteCommand[] {
  const t = useT(paletteMessages);
  const common = useT(commonMessages);
  const { locale, setLocale } = useLocale();
  const { go, newChat, toggleSidebar, focusComposer, showShortcuts, teamsAvailable, threads } =
    options;
  const theme = options.theme;
  return useMemo(() => {
    const actions = t("groupActions");
    const goTo = t("groupGoTo");
    const commands: PaletteCommand[] = [
      { id: "new-chat", label: t("newChat"), group: actions, shortcut: "newChat", run: newChat },
      {
        id: "focus",
        label: t("focusComposer"),
        group: actions,
        shortcut: "focusComposer",
        run: focusComposer,
      },
      {
        id: "sidebar",
        label: t("toggleSidebar"),
        group: actions,
        shortcut: "toggleSidebar",
        run: toggleSidebar,
      },
      {
        id: "shortcuts",
        label: t("shortcuts"),
        group: actions,
        shortcut: "help",
        run: showShortcuts,
      },
      {
        id: "go-settings",
        label: t("goSettings"),
        group: goTo,
        keywords: "settings preferences",
        shortcut: "settings",
        run: () => go({ page: "settings", section: null }),
      },
      {
        id: "go-agents",
        label: t("goAgents"),
        group: goTo,
        keywords: "agents",
        run: () => go({ page: "agents" }),
      },
      {
        id: "go-scheduled",
        label: t("goScheduledTasks"),
        group: goTo,
        keywords: "scheduled tasks cron",
        run: () => go({ page: "scheduled-tasks" }),
      },
    ];
    if (teamsAvailable)
      commands.push({
        id: "go-teams",
        label: t("goTeams"),
        group: goTo,
        keywords: "teams",
        run: () => go({ page: "teams", teamId: null }),
      });
    for (const other of LOCALES.filter((choice) => choice !== locale))
      commands.push({
        id: `language-${other}`,
        label: t("switchLanguage", { language: LANGUAGE_NAMES[other] }),
        group: t("groupLanguage"),
        keywords: "language 语言",
        run: () => setLocale(other),
      });
    for (const choice of theme?.choices ?? [])
      if (choice.value !== theme?.current)
        commands.push({
          id: `theme-${choice.value}`,
          label: t("theme", { theme: choice.label }),
          group: t("groupTheme"),
          keywords: "theme",
          run: () => theme?.choose(choice.value),
        });
    const chats = t("groupChats");
    for (const thread of threads)
      commands.push({
        id: `chat-${thread.threadId}`,
        label: thread.title || common("newChat"),
        group: chats,
        run: () => go({ page: "chat", threadId: thread.threadId }),
      });
    return commands;
  }, [
    t,
    common,
    locale,
    setLocale,
    go,
    newChat,
    toggleSidebar,
    focusComposer,
    showShortcuts,
    teamsAvailable,
    threads,
    theme,
  ]);
}
