import { type FormEvent, type ReactNode, useState } from "react";
import { apiFetch } from "../api/http.js";
import { LanguagePicker } from "../i18n/language-picker.js";
import { useT } from "../i18n/locale-context.js";
import { authMessages } from "../i18n/messages/auth.js";
import { commonMessages } from "../i18n/messages/common.js";
import { useErrorText } from "../i18n/use-error-text.js";

/** Email + password sign-in for `auth.mode: local`; can also create the first account. */
export function LoginPage({ onSignedIn }: { onSignedIn: () => void }): ReactNode {
  const t = useT(authMessages);
  const explain = useErrorText();
  const common = useT(commonMessages);
  const [mode, setMode] = useState<"login" | "register">("login");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await apiFetch(mode === "login" ? "/auth/login" : "/auth/register", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      onSignedIn();
    } catch (caught) {
      setError(explain(caught).text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login">
      <form className="login-card" onSubmit={(event) => void submit(event)}>
        <h1>{common("brand")}</h1>
        <p className="muted">{mode === "login" ? t("signInLead") : t("registerLead")}</p>
        <label>
          {t("email")}
          <input
            name="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <label>
          {t("password")}
          <input
            name="password"
            type="password"
            autoComplete={mode === "login" ? "current-password" : "new-password"}
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {mode === "login" ? t("signIn") : t("createAccount")}
        </button>
        <button
          type="button"
          className="link-button"
          onClick={() => setMode(mode === "login" ? "register" : "login")}
        >
          {mode === "login" ? t("toRegister") : t("toSignIn")}
        </button>
      </form>
      <LanguagePicker className="login-language" />
    </main>
  );
}
