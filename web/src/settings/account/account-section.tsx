import type { ReactNode } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsAccountMessages } from "../../i18n/messages/settings-account.js";
import { LoadState } from "../controls.js";
import { useResource } from "../use-resource.js";
import { readAccount } from "./account-api.js";
import { ApiTokens } from "./api-tokens.js";
import { PasswordForm } from "./password-form.js";

/** The signed-in account (local auth), its password and API tokens; with auth off, why not. */
export function AccountSection(): ReactNode {
  const t = useT(settingsAccountMessages);
  const { resource, reload } = useResource(readAccount);
  if (resource.state !== "ready") {
    return <LoadState failed={resource.state === "failed" ? resource : null} onRetry={reload} />;
  }
  const account = resource.data;
  if (account.user === null) {
    return <p className="settings-card">{t("authOff", { mode: account.mode })}</p>;
  }
  return (
    <div className="settings-stack">
      <p>
        <span className="muted">{t("signedInAs")}</span>{" "}
        <strong className="settings-wrap">{account.user.email}</strong>
      </p>
      <PasswordForm />
      <ApiTokens />
    </div>
  );
}
