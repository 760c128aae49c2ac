import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { loadedExtensions } from "./api/extensions.js";
import { apiFetch, apiJson } from "./api/http.js";
import { createSdkClient } from "./api/sdk-client.js";
import type { ModelInfo, ModelList, User } from "./api/types.js";
import { ChatView } from "./chat/chat-view.js";
import { pathForRoute, pathForThread, type Route, routeFromPath } from "./routing.js";
import { TEAMS_NAMESPACE } from "./teams/teams-api.js";
import { TeamsPage } from "./teams/teams-page.js";
import { ThreadList, useThreadList } from "./threads/thread-list.js";

interface Props {
  user: User | null;
  authMode: string;
  onSignedOut: () => void;
}

/** Sidebar of threads + the chat (with its artifacts panel) or the Teams page; routes by the URL path. */
export function Workspace({ user, authMode, onSignedOut }: Props): ReactNode {
  const client = useMemo(() => createSdkClient(), []);
  const threads = useThreadList(client);
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [teamsAvailable, setTeamsAvailable] = useState<boolean | null>(null);
  const [route, setRoute] = useState(() => ({
    ...routeOf(window.location.pathname),
    // Changes only when the user navigates, not when the SDK creates the thread of a new chat,
    // so the streaming chat is not remounted mid-run.
    view: 0,
  }));

  useEffect(() => {
    const onPop = (): void =>
      setRoute((current) => ({ ...routeOf(window.location.pathname), view: current.view + 1 }));
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

  // Below 800 px the sidebar is a drawer opened from the top bar; navigating closes it.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  const go = useCallback((next: Route) => {
    setMenuOpen(false);
    window.history.pushState(null, "", pathForRoute(next));
    setRoute((current) => ({ ...routeOf(pathForRoute(next)), view: current.view + 1 }));
  }, []);
  const navigate = useCallback((threadId: string | null) => go({ page: "chat", threadId }), [go]);
  const openTeam = useCallback((teamId: string | null) => go({ page: "teams", teamId }), [go]);

  const onThreadCreated = useCallback(
    (threadId: string) => {
      // replaceState, not navigation: the chat that is streaming stays mounted.
      window.history.replaceState(null, "", pathForThread(threadId));
      setRoute((current) => ({ ...current, threadId }));
      threads.refresh();
    },
    [threads.refresh],
  );

  const signOut = async (): Promise<void> => {
    await apiFetch("/auth/logout", { method: "POST" }).catch(() => undefined);
    onSignedOut();
  };

  return (
    <div className={menuOpen ? "workspace menu-open" : "workspace"}>
      <header className="topbar">
        <button
          type="button"
          className="icon menu-button"
          aria-label={menuOpen ? "Close the menu" : "Open the menu"}
          aria-expanded={menuOpen}
          aria-controls="workspace-sidebar"
          onClick={() => setMenuOpen((open) => !open)}
        >
          ☰
        </button>
        <span className="brand">Fawn</span>
        <button
          type="button"
          className="icon"
          aria-label="New chat"
          title="New chat"
          onClick={() => navigate(null)}
        >
          +
        </button>
      </header>
      {menuOpen && (
        <div className="drawer-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />
      )}
      <aside className="sidebar" id="workspace-sidebar">
        <div className="brand">Fawn</div>
        <button type="button" className="primary new-chat" onClick={() => navigate(null)}>
          New chat
        </button>
        {teamsAvailable && (
          <nav className="workspace-nav" aria-label="Workspace">
            <a
              href="/teams"
              className="nav-link"
              aria-current={route.teams ? "page" : undefined}
              onClick={(event) => {
                if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
                event.preventDefault();
                openTeam(null);
              }}
            >
              Teams
            </a>
          </nav>
        )}
        <ThreadList
          list={threads}
          client={client}
          activeThreadId={route.threadId}
          onOpen={(threadId) => navigate(threadId)}
          onDeleted={(threadId) => {
            if (threadId === route.threadId) navigate(null);
          }}
        />
        {authMode === "local" && user && (
          <div className="account">
            <span title={user.email}>{user.email}</span>
            <button type="button" className="link-button" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        )}
      </aside>
      {route.teams === null ? (
        <ChatView
          key={route.view}
          client={client}
          initialThreadId={route.threadId}
          models={models}
          onThreadCreated={onThreadCreated}
          onRunFinished={threads.refresh}
          onNewChat={() => navigate(null)}
          onOpenThread={(threadId) => {
            threads.refresh();
            navigate(threadId);
          }}
        />
      ) : teamsAvailable === false ? (
        <section className="teams-page" aria-label="Teams">
          <p className="notice teams-body">This server does not run the agent-teams plugin.</p>
        </section>
      ) : (
        <TeamsPage
          teamId={route.teams.teamId}
          onOpenTeam={openTeam}
          onOpenThread={(threadId) => navigate(threadId)}
        />
      )}
    </div>
  );
}

/** The chat's thread (null on the Teams page, where `teams` names the open team). */
function routeOf(pathname: string): {
  threadId: string | null;
  teams: { teamId: string | null } | null;
} {
  const route = routeFromPath(pathname);
  return route.page === "chat"
    ? { threadId: route.threadId, teams: null }
    : { threadId: null, teams: { teamId: route.teamId } };
}
