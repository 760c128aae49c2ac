import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { loadedExtensions } from "./api/extensions.js";
import { apiFetch, apiJson } from "./api/http.js";
import { createSdkClient } from "./api/sdk-client.js";
import type { ModelInfo, ModelList, User } from "./api/types.js";
import { CommandPalette } from "./command-palette/command-palette.js";
import { useWorkspaceCommands } from "./command-palette/workspace-commands.js";
import { LanguagePicker } from "./i18n/language-picker.js";
import { useT } from "./i18n/locale-context.js";
import { authMessages } from "./i18n/messages/auth.js";
import { commonMessages } from "./i18n/messages/common.js";
import { shellMessages } from "./i18n/messages/shell.js";
import { paletteMessages } from "./i18n/messages/shortcuts.js";
import { teamsMessages } from "./i18n/messages/teams.js";
import { pathForRoute, pathForThread, type Route, routeFromPath } from "./routing.js";
import { THEMES, useTheme } from "./settings/theme.js";
import { focusComposer, navigateAndFocusComposer } from "./shell/focus-composer.js";
import { useSidebar } from "./shell/use-sidebar.js";
import { ShortcutsDialog } from "./shortcuts/shortcuts-dialog.js";
import { useGlobalShortcuts } from "./shortcuts/use-global-shortcuts.js";
import { TEAMS_NAMESPACE } from "./teams/teams-api.js";
import { type ChatRename, ThreadList, useThreadList } from "./threads/thread-list.js";

// The chat (the SDK's stream hook and all it brings) is its own chunk, requested as soon as this
// module runs, in parallel with the shell's first API calls: index.html loads only the shell.
const chatViewModule = import("./chat/chat-view.js");
const ChatView = lazy(() => chatViewModule.then((m) => ({ default: m.ChatView })));
// Pages other than the chat load on first visit, so the first screen downloads only the chat.
const TeamsPage = lazy(() =>
  import("./teams/teams-page.js").then((m) => ({ default: m.TeamsPage })),
);
const SettingsPage = lazy(() =>
  import("./settings/settings-page.js").then((m) => ({ default: m.SettingsPage })),
);
const AgentsPage = lazy(() =>
  import("./agents/agents-page.js").then((m) => ({ default: m.AgentsPage })),
);
const ScheduledTasksPage = lazy(() =>
  import("./scheduled-tasks/scheduled-tasks-page.js").then((m) => ({
    default: m.ScheduledTasksPage,
  })),
);

interface Props {
  user: User | null;
  authMode: string;
  onSignedOut: () => void;
}

/**
 * Sidebar of threads and pages + the chat (with its artifacts panel) or another page; routes by
 * the URL path. Owns the shell's keyboard: global shortcuts, the command palette, the shortcuts list.
 */
export function Workspace({ user, authMode, onSignedOut }: Props): ReactNode {
  const t = useT(commonMessages);
  const shell = useT(shellMessages);
  const auth = useT(authMessages);
  const teamsText = useT(teamsMessages);
  const client = useMemo(() => createSdkClient(), []);
  const threads = useThreadList(client);
  const [models, setModels] = useState<ModelInfo[]>([]);
  // The latest rename from the chat list: the open chat's header shows it without a reload.
  const [rename, setRename] = useState<ChatRename | null>(null);
  const [teamsAvailable, setTeamsAvailable] = useState<boolean | null>(null);
  const [route, setRoute] = useState<ViewRoute>(() => ({
    ...routeFromPath(window.location.pathname),
    // Changes only when the user navigates, not when the SDK creates the thread of a new chat,
    // so the streaming chat is not remounted mid-run.
    view: 0,
  }));

  useEffect(() => {
    const onPop = (): void =>
      setRoute((current) => ({
        ...routeFromPath(window.location.pathname),
        view: current.view + 1,
      }));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  useEffect(() => {
    apiJson<ModelList>("/models")
      .then((list) => setModels(list.models))
      .catch(() => setModels([]));
    // The Teams page is offered only when the server runs the agent-teams plugin.
    loadedExtensions()
      .then((namespaces) => setTeamsAvailable(namespaces.includes(TEAMS_NAMESPACE)))
      .catch(() => setTeamsAvailable(false));
  }, []);

  // Below 800 px the sidebar is a drawer opened from the top bar; navigating closes it. Wider,
  // it is a column the user may hide (⌘/Ctrl+B), and the top bar then shows to bring it back.
  const sidebar = useSidebar();
  const { closeDrawer } = sidebar;
  const [dialog, setDialog] = useState<"palette" | "shortcuts" | null>(null);

  const go = useCallback(
    (next: Route) => {
      closeDrawer();
      window.history.pushState(null, "", pathForRoute(next));
      setRoute((current) => ({ ...routeFromPath(pathForRoute(next)), view: current.view + 1 }));
    },
    [closeDrawer],
  );
  const navigate = useCallback((threadId: string | null) => go({ page: "chat", threadId }), [go]);
  const newChat = useCallback(() => {
    navigateAndFocusComposer(() => navigate(null));
  }, [navigate]);
  const focusMessageBox = useCallback(() => void focusComposer(), []);
  const showShortcuts = useCallback(() => setDialog("shortcuts"), []);
  const closeDialog = useCallback(() => setDialog(null), []);

  useGlobalShortcuts(
    {
      palette: () => setDialog((open) => (open === "palette" ? null : "palette")),
      newChat,
      toggleSidebar: sidebar.toggle,
      settings: () => go({ page: "settings", section: null }),
      help: showShortcuts,
      focusComposer: focusMessageBox,
    },
    dialog !== null,
  );

  const [theme, setTheme] = useTheme();
  const palette = useT(paletteMessages);
  const commands = useWorkspaceCommands({
    go,
    newChat,
    toggleSidebar: sidebar.toggle,
    focusComposer: focusMessageBox,
    showShortcuts,
    teamsAvailable: teamsAvailable === true,
    threads: threads.threads,
    theme: {
      current: theme,
      choices: THEMES.map((value) => ({ value, label: palette(THEME_LABELS[value]) })),
      choose: (value) => {
        const chosen = THEMES.find((choice) => choice === value);
        if (chosen) setTheme(chosen);
      },
    },
  });
  // A chat another page made (a team member's, a scheduled task's) may not be listed yet.
  const openThread = useCallback(
    (threadId: string) => {
      threads.refresh();
      navigate(threadId);
    },
    [threads.refresh, navigate],
  );
  const openTeam = useCallback((teamId: string | null) => go({ page: "teams", teamId }), [go]);

  const onThreadCreated = useCallback(
    (threadId: string) => {
      // replaceState, not navigation: the chat that is streaming stays mounted.
      window.history.replaceState(null, "", pathForThread(threadId));
      setRoute((current) => ({ ...current, page: "chat", threadId }));
      threads.refresh();
    },
    [threads.refresh],
  );

  const signOut = async (): Promise<void> => {
    await apiFetch("/auth/logout", { method: "POST" }).catch(() => undefined);
    onSignedOut();
  };

  const pages: { route: Route; label: string; shown: boolean }[] = [
    { route: { page: "teams", teamId: null }, label: t("teams"), shown: teamsAvailable === true },
    { route: { page: "agents" }, label: t("agents"), shown: true },
    { route: { page: "scheduled-tasks" }, label: t("scheduledTasks"), shown: true },
    { route: { page: "settings", section: null }, label: t("settings"), shown: true },
  ];

  const menuOpen = sidebar.narrow && sidebar.drawerOpen;
  const sidebarShown = sidebar.narrow ? sidebar.drawerOpen : !sidebar.collapsed;
  const classes = [
    "workspace",
    menuOpen && "menu-open",
    !sidebar.narrow && sidebar.collapsed && "sidebar-collapsed",
  ];
  return (
    <div className={classes.filter(Boolean).join(" ")}>
      <header className="topbar">
        <button
          type="button"
          className="icon menu-button"
          aria-label={
            sidebar.narrow ? shell(menuOpen ? "closeMenu" : "openMenu") : shell("showSidebar")
          }
          aria-expanded={sidebarShown}
          aria-controls="workspace-sidebar"
          onClick={sidebar.toggle}
        >
          ☰
        </button>
        <span className="brand">{t("brand")}</span>
        <button
          type="button"
          className="icon"
          aria-label={t("newChat")}
          title={t("newChat")}
          onClick={() => navigate(null)}
        >
          +
        </button>
      </header>
      {menuOpen && <div className="drawer-backdrop" aria-hidden="true" onClick={closeDrawer} />}
      <aside className="sidebar" id="workspace-sidebar" aria-label={shell("sidebar")}>
        <div className="sidebar-head">
          <div className="brand">{t("brand")}</div>
          <button
            type="button"
            className="icon sidebar-toggle"
            aria-label={shell(sidebar.narrow ? "closeMenu" : "hideSidebar")}
            title={shell(sidebar.narrow ? "closeMenu" : "hideSidebar")}
            onClick={sidebar.toggle}
          >
            «
          </button>
        </div>
        <button type="button" className="primary new-chat" onClick={() => navigate(null)}>
          {t("newChat")}
        </button>
        <nav className="workspace-nav" aria-label={shell("workspaceNav")}>
          {pages
            .filter((entry) => entry.shown)
            .map((entry) => (
              <a
                key={entry.route.page}
                href={pathForRoute(entry.route)}
                className="nav-link"
                aria-current={route.page === entry.route.page ? "page" : undefined}
                onClick={(event) => {
                  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
                    return;
                  event.preventDefault();
                  go(entry.route);
                }}
              >
                {entry.label}
              </a>
            ))}
        </nav>
        <ThreadList
          list={threads}
          client={client}
          activeThreadId={route.page === "chat" ? route.threadId : null}
          onOpen={(threadId) => navigate(threadId)}
          onDeleted={(threadId) => {
            if (route.page === "chat" && threadId === route.threadId) navigate(null);
          }}
          onRenamed={setRename}
        />
        <div className="sidebar-footer">
          {authMode === "local" && user && (
            <div className="account">
              <span title={auth("signedInAs", { email: user.email })}>{user.email}</span>
              <button type="button" className="link-button" onClick={() => void signOut()}>
                {auth("signOut")}
              </button>
            </div>
          )}
          <LanguagePicker />
        </div>
      </aside>
      <Suspense fallback={<div className="page-loading">{t("loading")}</div>}>
        {route.page === "chat" ? (
          <ChatView
            key={route.view}
            client={client}
            initialThreadId={route.threadId}
            models={models}
            rename={rename}
            onThreadCreated={onThreadCreated}
            onRunFinished={threads.refresh}
            onNewChat={() => navigate(null)}
            onOpenThread={openThread}
          />
        ) : route.page === "teams" ? (
          teamsAvailable === false ? (
            <section className="teams-page" aria-label={teamsText("title")}>
              <p className="notice teams-body">{teamsText("notRunning")}</p>
            </section>
          ) : (
            <TeamsPage teamId={route.teamId} onOpenTeam={openTeam} onOpenThread={openThread} />
          )
        ) : route.page === "settings" ? (
          <SettingsPage
            section={route.section}
            models={models}
            onSection={(section) => go({ page: "settings", section })}
          />
        ) : route.page === "agents" ? (
          <AgentsPage onOpenThread={openThread} />
        ) : (
          <ScheduledTasksPage onOpenThread={openThread} />
        )}
      </Suspense>
      {dialog === "palette" && <CommandPalette commands={commands} onClose={closeDialog} />}
      {dialog === "shortcuts" && <ShortcutsDialog onClose={closeDialog} />}
    </div>
  );
}

const THEME_LABELS = { system: "themeSystem", light: "themeLight", dark: "themeDark" } as const;

type ViewRoute = Route & { view: number };
