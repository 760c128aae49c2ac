import {
  HISTORY_SECTIONS,
  type HistorySection,
  isEmptyMemory,
  type MemoryDocument,
  USER_SECTIONS,
  type UserSection,
} from "./memory-document.js";

const USER_LABELS: Record<UserSection, string> = {
  workContext: "Work",
  personalContext: "Personal",
  topOfMind: "Top of mind",
};

const HISTORY_LABELS: Record<HistorySection, string> = {
  recentMonths: "Recent months",
  earlierContext: "Earlier",
  longTermBackground: "Background",
};

const HEADER =
  "What you remember about this user from earlier conversations. Use it when it helps; what the user says now wins over it.";

const TOOL_MODE_HINT =
  "Facts you kept are not listed here: look them up with memory_search, and keep new ones with memory_add.";

/** Rough token count (≈4 characters a token), enough to keep the block within its budget. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The `<memory>` block for the next run's prompt: summaries first (who the user is, then their
 * history), then facts from the most confident down, as many as fit `maxTokens`. Null when there
 * is nothing to say. Stored text is escaped so it cannot close the block or open another tag.
 */
export function renderMemoryInjection(
  memory: MemoryDocument,
  maxTokens: number,
  options: { facts?: boolean } = {},
): string | null {
  if (isEmptyMemory(memory)) return null;
  // Tool mode: the agent looks facts up itself (memory_search); only the summaries are injected.
  const withFacts = options.facts ?? true;
  const header = withFacts ? HEADER : `${HEADER} ${TOOL_MODE_HINT}`;
  const budget = maxTokens * 4 - "<memory>\n\n</memory>".length - header.length;
  const lines: string[] = [];
  let used = 0;
  const add = (line: string): boolean => {
    if (used + line.length + 1 > budget) return false;
    lines.push(line);
    used += line.length + 1;
    return true;
  };

  for (const key of USER_SECTIONS) {
    const summary = memory.user[key].summary.trim();
    if (summary && !add(`- ${USER_LABELS[key]}: ${escapeTags(summary)}`)) break;
  }
  for (const key of HISTORY_SECTIONS) {
    const summary = memory.history[key].summary.trim();
    if (summary && !add(`- ${HISTORY_LABELS[key]}: ${escapeTags(summary)}`)) break;
  }
  const facts = (withFacts ? [...memory.facts] : []).sort(
    (a, b) => b.confidence - a.confidence || b.createdAt.localeCompare(a.createdAt),
  );
  let factHeading = false;
  for (const fact of facts) {
    if (!factHeading) {
      if (!add("Facts:")) break;
      factHeading = true;
    }
    if (!add(`- [${fact.category}] ${escapeTags(fact.content)}`)) break;
  }
  if (lines.length === 0 || (lines.length === 1 && factHeading)) {
    return withFacts || memory.facts.length === 0 ? null : `<memory>\n${header}\n</memory>`;
  }
  return `<memory>\n${header}\n${lines.join("\n")}\n</memory>`;
}

function escapeTags(text: string): string {
  return text.replace(/\s+/g, " ").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
