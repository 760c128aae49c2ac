import type { ReactNode } from "react";
import { useLocale, useT } from "../../i18n/locale-context.js";
import { chatActivityMessages } from "../../i18n/messages/chat-activity.js";
import type { ThreadTokenUsage } from "./use-token-usage.js";
import "./usage.css";

type RowKey =
  | "usageTotal"
  | "usageInput"
  | "usageOutput"
  | "usageRuns"
  | "usageLead"
  | "usageSubagents"
  | "usageMiddleware"
  | "usageContext";

/** 1234 → "1,234" (or "1.2k" when `short`), in the page's language. */
function formatCount(value: number, locale: string, short = false): string {
  return new Intl.NumberFormat(
    locale,
    short ? { notation: "compact", maximumFractionDigits: 1 } : {},
  ).format(value);
}

/**
 * A small gauge of the chat's token use in the header: how full the model's context is (when the
 * server knows its size) or the tokens spent, with every figure in a popover.
 */
export function TokenGauge({ usage }: { usage: ThreadTokenUsage }): ReactNode {
  const t = useT(chatActivityMessages);
  const { locale } = useLocale();
  const context = usage.context_usage;
  const percent =
    context?.percentage !== null && context?.percentage !== undefined
      ? Math.min(100, Math.max(0, context.percentage))
      : null;
  const label =
    percent !== null
      ? t("contextUsed", { percent: Math.round(percent) })
      : t("tokens", { count: formatCount(usage.total_tokens, locale, true) });
  const rows: [RowKey, string][] = [
    ["usageTotal", formatCount(usage.total_tokens, locale)],
    ["usageInput", formatCount(usage.total_input_tokens, locale)],
    ["usageOutput", formatCount(usage.total_output_tokens, locale)],
    ["usageRuns", formatCount(usage.total_runs, locale)],
    ["usageLead", formatCount(usage.by_caller.lead_agent, locale)],
    ["usageSubagents", formatCount(usage.by_caller.subagent, locale)],
    ["usageMiddleware", formatCount(usage.by_caller.middleware, locale)],
  ];
  if (context) {
    rows.push([
      "usageContext",
      context.max_context_tokens === null
        ? formatCount(context.token_count, locale)
        : t("usageContextValue", {
            used: formatCount(context.token_count, locale),
            max: formatCount(context.max_context_tokens, locale),
          }),
    ]);
  }
  return (
    <details className="token-gauge" data-testid="token-gauge">
      <summary title={t("tokensLabel")}>
        {percent !== null && (
          <span className="token-meter" aria-hidden="true">
            <span className="token-meter-fill" style={{ width: `${percent}%` }} />
          </span>
        )}
        <span className="token-gauge-label">{label}</span>
      </summary>
      <div className="token-popover">
        <dl>
          {rows.map(([name, value]) => (
            <div key={name} className="token-row">
              <dt>{t(name)}</dt>
              <dd data-testid={name}>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </details>
  );
}
