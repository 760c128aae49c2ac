import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { apiFetch, apiJson } from "./api/http.js";
import { createSdkClient } from "./api/sdk-client.js";
import type { ModelInfo, ModelList, User } from "./api/types.js";
import { ChatView } from "./chat/chat-view.js";
import { pathForThread, threadIdFromPath } from "./routing.js";
import { ThreadList, useThreadList } from "./threads/thread-list.js";

interface Props {
  user: User | null;
  authMode: string;
  onSignedOut: () => void;
}

/** Sidebar of threads + the chat (with its artifacts panel); routes by the URL path. */
export function Workspace({ user, authMode, onSignedOut }: Props): ReactNode {
  const client = useMemo(() => createSdkClient(), []);
  const threads = useThreadList(client);
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [route, setRoute] = useState(() => ({
    threadId: threadIdFromPath(window.location.pathname),
    // Changes only when the user navigates, not when the SDK creates the thread of a new chat,
    // so the streaming chat is not remounted mid-run.
    view: 0,
  }));

  useEffect(() => {
    const onPop = (): void =>
      setRoute((current) => ({
        threadId: threadIdFromPath(window.location.pathname),
        view: current.view + 1,
      }));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  useEffect(() => {
    apiJson<ModelList>("/models")
      .then((list) => setModels(list.models))
      .catch(() => setModels([]));
  }, []);

  const navigate = useCallback((threadId: string | null) => {
    window.history.pushState(null, "", pathForThread(threadId));
    setRoute((current) => ({ threadId, view: current.view + 1 }));
  }, []);

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
    <div className="workspace">
      <aside className="sidebar">
        <div className="brand">Fawn</div>
        <button type="button" className="primary new-chat" onClick={() => navigate(null)}>
          New chat
        </button>
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
      <ChatView
        key={route.view}
        client={client}
        initialThreadId={route.threadId}
        models={models}
        onThreadCreated={onThreadCreated}
        onRunFinished={threads.refresh}
      />
    </div>
  );
}
