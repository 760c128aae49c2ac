import { type ReactNode, useId, useState } from "react";
import { useT } from "../../i18n/locale-context.js";
import { settingsMcpMessages } from "../../i18n/messages/settings-mcp.js";
import { Feedback } from "../controls.js";
import { useAction } from "../use-resource.js";
import type { McpServer, McpTransport } from "./mcp-api.js";

const BLANK: McpServer = {
  enabled: true,
  type: "stdio",
  command: null,
  args: [],
  env: {},
  url: null,
  headers: {},
  description: null,
  tools: null,
  tool_name_prefix: null,
  tool_call_timeout: null,
  session_init_timeout: null,
};

/** `KEY=value` / `Name: value` lines ⇄ a record; a line without the separator is an error. */
function linesOf(record: Record<string, string>, separator: string): string {
  return Object.entries(record)
    .map(([key, value]) => `${key}${separator}${value}`)
    .join("\n");
}

function recordOf(
  text: string,
  separator: "=" | ":",
): { record: Record<string, string> } | { badLine: string } {
  const record: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const at = line.indexOf(separator);
    if (at <= 0) return { badLine: line };
    record[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return { record };
}

/**
 * Adds a server or edits one. Fields the form does not show (tool filters, timeouts) are kept as
 * they were; masked secrets stay `***` unless the user types a new value.
 */
export function McpServerForm(props: {
  /** null: a new server. */
  name: string | null;
  server: McpServer | null;
  takenNames: readonly string[];
  onSave: (name: string, server: McpServer) => Promise<string>;
  onCancel: () => void;
}): ReactNode {
  const t = useT(settingsMcpMessages);
  const base = props.server ?? BLANK;
  const [name, setName] = useState(props.name ?? "");
  const [type, setType] = useState<McpTransport>(base.type);
  const [command, setCommand] = useState(base.command ?? "");
  const [args, setArgs] = useState(base.args.join("\n"));
  const [env, setEnv] = useState(linesOf(base.env, "="));
  const [url, setUrl] = useState(base.url ?? "");
  const [headers, setHeaders] = useState(linesOf(base.headers, ": "));
  const [description, setDescription] = useState(base.description ?? "");
  const [enabled, setEnabled] = useState(base.enabled);
  const action = useAction();
  const id = useId();
  const title = props.name === null ? t("formAdd") : t("formEdit", { name: props.name });

  const submit = (): void => {
    void action.run(async () => {
      const trimmed = name.trim();
      if (trimmed === "") throw new Error(t("nameMissing"));
      if (props.name === null && props.takenNames.includes(trimmed))
        throw new Error(t("nameTaken", { name: trimmed }));
      const server: McpServer = { ...base, type, enabled, description: description.trim() || null };
      if (type === "stdio") {
        const parsedEnv = recordOf(env, "=");
        if ("badLine" in parsedEnv) throw new Error(t("badLine", { line: parsedEnv.badLine }));
        server.command = command.trim() || null;
        server.args = args
          .split("\n")
          .map((arg) => arg.trim())
          .filter((arg) => arg !== "");
        server.env = parsedEnv.record;
        server.url = null;
        server.headers = {};
      } else {
        const parsedHeaders = recordOf(headers, ":");
        if ("badLine" in parsedHeaders)
          throw new Error(t("badHeader", { line: parsedHeaders.badLine }));
        server.url = url.trim() || null;
        server.headers = parsedHeaders.record;
        server.command = null;
        server.args = [];
        server.env = {};
      }
      return props.onSave(trimmed, server);
    });
  };

  return (
    <form
      className="settings-card settings-stack"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h3>{title}</h3>
      <div className="settings-fields">
        <label htmlFor={`${id}-name`}>{t("name")}</label>
        <input
          id={`${id}-name`}
          value={name}
          readOnly={props.name !== null}
          aria-describedby={`${id}-name-hint`}
          onChange={(event) => setName(event.target.value)}
        />
        <p id={`${id}-name-hint`} className="small muted">
          {t("nameHint")}
        </p>
        <label htmlFor={`${id}-type`}>{t("type")}</label>
        <select
          id={`${id}-type`}
          value={type}
          onChange={(event) => setType(event.target.value as McpTransport)}
        >
          <option value="stdio">{t("typeStdio")}</option>
          <option value="http">{t("typeHttp")}</option>
          <option value="sse">{t("typeSse")}</option>
        </select>
        {type === "stdio" ? (
          <>
            <label htmlFor={`${id}-command`}>{t("command")}</label>
            <input
              id={`${id}-command`}
              value={command}
              aria-describedby={`${id}-command-hint`}
              onChange={(event) => setCommand(event.target.value)}
            />
            <p id={`${id}-command-hint`} className="small muted">
              {t("commandHint")}
            </p>
            <label htmlFor={`${id}-args`}>{t("args")}</label>
            <textarea
              id={`${id}-args`}
              className="settings-code"
              rows={3}
              value={args}
              onChange={(event) => setArgs(event.target.value)}
            />
            <label htmlFor={`${id}-env`}>{t("env")}</label>
            <textarea
              id={`${id}-env`}
              className="settings-code"
              rows={3}
              value={env}
              aria-describedby={`${id}-secrets`}
              onChange={(event) => setEnv(event.target.value)}
            />
          </>
        ) : (
          <>
            <label htmlFor={`${id}-url`}>{t("url")}</label>
            <input
              id={`${id}-url`}
              type="url"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
            />
            <label htmlFor={`${id}-headers`}>{t("headers")}</label>
            <textarea
              id={`${id}-headers`}
              className="settings-code"
              rows={3}
              value={headers}
              aria-describedby={`${id}-secrets`}
              onChange={(event) => setHeaders(event.target.value)}
            />
          </>
        )}
        <p id={`${id}-secrets`} className="small muted">
          {t("secretsHint")}
        </p>
        <label htmlFor={`${id}-description`}>{t("description")}</label>
        <input
          id={`${id}-description`}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <label className="settings-choice">
          <input
            type="checkbox"
            checked={enabled}
            onChange={(event) => setEnabled(event.target.checked)}
          />
          <span>{t("enabled")}</span>
        </label>
      </div>
      <Feedback error={action.error} />
      <div className="settings-actions">
        <button type="submit" className="primary" disabled={action.busy}>
          {action.busy ? t("saving") : t("save")}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
