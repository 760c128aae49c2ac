import { type ReactNode, useCallback, useEffect, useState } from "react";
import { ApiError, apiJson } from "./api/http.js";
import type { ServerInfo, User } from "./api/types.js";
import { LoginPage } from "./auth/login-page.js";
import { useT } from "./i18n/locale-context.js";
import { commonMessages } from "./i18n/messages/common.js";
import { shellMessages } from "./i18n/messages/shell.js";
import { Workspace } from "./workspace.js";

type Gate =
  | { state: "loading" }
  | { state: "login" }
  | { state: "ready"; user: User | null; authMode: string }
  | { state: "offline"; message: string };

/** Resolves who the user is (auth mode from `/api/info`, then `/api/auth/me`) before the workspace. */
export function App(): ReactNode {
  const t = useT(shellMessages);
  const common = useT(commonMessages);
  const [gate, setGate] = useState<Gate>({ state: "loading" });

  const resolve = useCallback(async () => {
    try {
      const info = await apiJson<ServerInfo>("/info");
      if (info.auth_mode !== "local") {
        setGate({ state: "ready", user: null, authMode: info.auth_mode });
        return;
      }
      try {
        const me = await apiJson<{ user: User }>("/auth/me");
        setGate({ state: "ready", user: me.user, authMode: info.auth_mode });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) setGate({ state: "login" });
        else throw error;
      }
    } catch (error) {
      setGate({
        state: "offline",
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }, []);

  useEffect(() => {
    void resolve();
  }, [resolve]);

  switch (gate.state) {
    case "loading":
      return <div className="splash">{common("loading")}</div>;
    case "login":
      return <LoginPage onSignedIn={() => void resolve()} />;
    case "offline":
      return (
        <div className="splash">
          <p>{t("serverDown", { message: gate.message })}</p>
          <button type="button" onClick={() => void resolve()}>
            {common("retry")}
          </button>
        </div>
      );
    case "ready":
      return (
        <Workspace user={gate.user} authMode={gate.authMode} onSignedOut={() => void resolve()} />
      );
  }
}
