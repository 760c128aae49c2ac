import { describeConfiguredTools } from "../../agent/tools/describe-configured-tools.js";
import type { Env } from "../../core/config/env-expansion.js";
import type { FawnConfig } from "../../core/config/schema.js";
import type { DoctorItem, DoctorSection } from "./doctor-report.js";

const STATUS: Record<string, DoctorItem["status"]> = {
  built: "ok",
  "built-in": "ok",
  // The server starts without it; the agent simply lacks that tool.
  unavailable: "warn",
  // A bad option stops `fawn serve`.
  invalid: "fail",
};

/** Every `tools:` entry and what it builds. */
export function toolSection(config: Pick<FawnConfig, "tools">, env: Env): DoctorSection {
  return {
    title: "tools",
    empty: "no tools: entries (the agent has its built-in sandbox tools)",
    items: describeConfiguredTools(config.tools, { env }).map((tool) => {
      const status = STATUS[tool.status] ?? "warn";
      const item: DoctorItem = {
        status,
        name: tool.name,
        detail: `${tool.status}${tool.status === "built" ? ` (${tool.detail})` : ""} · ${tool.use}`,
      };
      if (status !== "ok") item.hint = tool.detail;
      return item;
    }),
  };
}
