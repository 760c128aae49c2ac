import type { LoadedConfig } from "../../core/config/load-config.js";
import type { DoctorSection } from "./doctor-report.js";

/**
 * The config file and the verdict on each of its keys that is not simply Fawn's own: mapped
 * onto a Fawn setting, unsupported (with what to do instead) or unknown; then other warnings.
 */
export function configSection(loaded: LoadedConfig): DoctorSection {
  const { findings, warnings, source } = loaded;
  const count = (kind: string) => findings.filter((finding) => finding.kind === kind).length;
  const findingLines = new Set(findings.map((finding) => `${finding.path}: ${finding.message}`));
  const notes = [
    ...findings.map((finding) => `${finding.kind}: ${finding.path}: ${finding.message}`),
    // Findings also appear among the warnings (with the file); list only the others here.
    ...warnings
      .filter((warning) => ![...findingLines].some((line) => warning.startsWith(line)))
      .map((warning) => `warning: ${warning}`),
  ];
  return {
    title: "config",
    items: [
      {
        status: count("unknown") > 0 ? "warn" : "ok",
        name: source ?? "defaults",
        detail: source
          ? `${count("mapped")} mapped, ${count("unsupported")} unsupported, ${count("unknown")} unknown key(s)`
          : "no config.yaml found (FAWN_CONFIG, $FAWN_HOME/config.yaml, ./config.yaml)",
        ...(count("unknown") > 0 ? { hint: "unknown keys are ignored: check them for typos" } : {}),
      },
    ],
    notes,
  };
}
