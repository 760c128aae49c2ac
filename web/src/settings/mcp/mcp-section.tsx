import { type ReactNode, useState } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsMcpMessages } from "../../i18n/messages/settings-mcp.js";
import { ConfirmButton, Feedback, LoadState, Switch } from "../controls.js";
import { useAction, useResource } from "../use-resource.js";
import {
  type McpServer,
  type McpServers,
  readMcpServers,
  resetMcpSessions,
  saveMcpServers,
  switchMcpServer,
} from "./mcp-api.js";
import { McpServerForm } from "./mcp-server-form.js";

type Open = { kind: "none" } | { kind: "form"; name: string | null };

function whereOf(server: McpServer): string {
  if (server.type === "stdio") return [server.command ?? "", ...server.args].join(" ").trim();
  return server.url ?? "";
}

/** The MCP servers of extensions_config.json: switch, add, edit, remove, reset sessions. */
export function McpSection(): ReactNode {
  const t = useT(settingsMcpMessages);
  const { resource, reload, replace } = useResource(readMcpServers);
  const action = useAction();
  const [open, setOpen] = useState<Open>({ kind: "none" });

  if (resource.state === "failed" && resource.status === 403) {
    return (
      <p className="settings-card" role="alert">
        {t("forbidden")}
      </p>
    );
  }
  if (resource.state !== "ready") {
    return <LoadState failed={resource.state === "failed" ? resource : null} onRetry={reload} />;
  }
  const servers = resource.data;
  const names = Object.keys(servers).sort();

  const saveServer = async (name: string, server: McpServer): Promise<string> => {
    replace(await saveMcpServers({ ...servers, [name]: server }));
    setOpen({ kind: "none" });
    const note = t("saved", { name });
    action.announce(note);
    return note;
  };

  return (
    <div className="settings-stack">
      <p className="muted">{t("intro")}</p>
      <div className="settings-actions">
        <button type="button" onClick={() => setOpen({ kind: "form", name: null })}>
          {t("add")}
        </button>
        <button
          type="button"
          title={t("resetHint")}
          disabled={action.busy}
          onClick={() =>
            void action.run(async () => {
              await resetMcpSessions();
              return t("resetDone");
            })
          }
        >
          {t("reset")}
        </button>
      </div>
      <Feedback error={action.error} note={action.note} />
      {open.kind === "form" && (
        <McpServerForm
          key={open.name ?? "new"}
          name={open.name}
          server={open.name === null ? null : (servers[open.name] ?? null)}
          takenNames={names}
          onSave={saveServer}
          onCancel={() => setOpen({ kind: "none" })}
        />
      )}
      {names.length === 0 ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <ul className="settings-list">
          {names.map((name) => {
            const server = servers[name];
            if (!server) return null;
            return (
              <li key={name} className="settings-item">
                <div className="settings-row">
                  <span className="settings-item-title">{name}</span>
                  <span className="badge">{server.type}</span>
                  <span className="settings-row-end">
                    <Switch
                      label={t("enabledLabel", { name })}
                      checked={server.enabled}
                      disabled={action.busy}
                      onChange={(enabled) =>
                        void action.run(async () => {
                          replace(await switchMcpServer(name, enabled));
                          return t(enabled ? "switchedOn" : "switchedOff", { name });
                        })
                      }
                    />
                  </span>
                </div>
                {server.description && <p className="settings-item-text">{server.description}</p>}
                <code className="settings-item-text small muted settings-wrap">
                  {whereOf(server)}
                </code>
                <div className="settings-actions">
                  <button
                    type="button"
                    className="small"
                    aria-label={`${t("edit")} ${name}`}
                    onClick={() => setOpen({ kind: "form", name })}
                  >
                    {t("edit")}
                  </button>
                  <ConfirmButton
                    label={t("remove")}
                    action={t("removeAction", { name })}
                    disabled={action.busy}
                    onConfirm={() =>
                      void action.run(async () => {
                        const rest: McpServers = { ...servers };
                        delete rest[name];
                        replace(await saveMcpServers(rest));
                        if (open.kind === "form" && open.name === name) setOpen({ kind: "none" });
                        return t("removed", { name });
                      })
                    }
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
