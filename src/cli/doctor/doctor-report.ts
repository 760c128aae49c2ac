/** One line of `fawn doctor`: what was checked, how it stands, and what to do about it. */
export interface DoctorItem {
  /** `ok`: works; `warn`: works partly or not at all, but nothing breaks; `fail`: a real error. */
  status: "ok" | "warn" | "fail";
  name: string;
  detail: string;
  hint?: string;
}

export interface DoctorSection {
  title: string;
  /** Shown under the title when the section has no items (e.g. "none configured"). */
  empty?: string;
  items: DoctorItem[];
  /** Extra lines (config findings, plugin diagnostics), printed indented under the items. */
  notes?: string[];
}

const LABELS: Record<DoctorItem["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };

/** The report as text, and whether anything is a real error (the command then exits 1). */
export function renderDoctorReport(sections: readonly DoctorSection[]): {
  text: string;
  failed: boolean;
} {
  const lines: string[] = [];
  let fails = 0;
  let warns = 0;
  for (const section of sections) {
    lines.push(`${section.title}:`);
    if (section.items.length === 0 && section.empty) lines.push(`  ${section.empty}`);
    for (const item of section.items) {
      if (item.status === "fail") fails++;
      if (item.status === "warn") warns++;
      lines.push(`  ${LABELS[item.status]} ${item.name}: ${item.detail}`);
      if (item.hint) lines.push(`       fix: ${item.hint}`);
    }
    for (const note of section.notes ?? []) lines.push(`  ${note}`);
  }
  lines.push(`summary: ${fails} error(s), ${warns} warning(s)`);
  return { text: `${lines.join("\n")}\n`, failed: fails > 0 };
}
