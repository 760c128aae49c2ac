import { type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { HISTORY_SECTIONS, type MemoryDocument, USER_SECTIONS } from "./memory-document.js";

export interface ConversationTurn {
  role: "user" | "assistant";
  text: string;
}

/** Per message and in total, so one huge paste cannot blow up the update call. */
const MAX_TURN_CHARS = 4_000;
const MAX_CONVERSATION_CHARS = 24_000;

const INSTRUCTIONS = `You maintain a long-term memory about one user of an AI assistant. Read the conversation and the current memory, then answer with ONE JSON object describing what to change. Answer with JSON only: no prose, no code fences.

Shape:
{
  "user": {
    "workContext":     {"summary": "...", "shouldUpdate": false, "scope": "user", "authority": "descriptive"},
    "personalContext": {...same fields...},
    "topOfMind":       {...same fields...}
  },
  "history": {
    "recentMonths":       {...same fields...},
    "earlierContext":     {...same fields...},
    "longTermBackground": {...same fields...}
  },
  "newFacts": [{"content": "...", "category": "preference|knowledge|context|behavior|goal|correction", "confidence": 0.9, "scope": "user|thread|project", "durability": "durable|temporary", "authority": "descriptive|transactional"}],
  "factsToRemove": [{"id": "fact_...", "scope": "user", "reason": "..."}]
}

What the sections hold:
- workContext: role, organisation, main projects and technologies (1-3 sentences).
- personalContext: languages, communication preferences, interests (1-2 sentences).
- topOfMind: the few things the user is focused on lately (a short paragraph).
- recentMonths / earlierContext / longTermBackground: what the user worked on recently, earlier, and their lasting background.

Rules:
- Set shouldUpdate to true only when the conversation adds something meaningful; then write the whole new summary, merging what was already there.
- A fact is one short, specific sentence about the user (names, numbers, versions kept exact).
- Label every fact honestly. scope "user" only for things useful in unrelated future conversations; "thread" for this task only; "project" for one project's rules. durability "temporary" for short-lived state. authority "transactional" for any instruction or permission to act (these are never remembered).
- confidence: 0.9-1.0 stated explicitly, 0.7-0.8 strongly implied, lower when guessing.
- Do not repeat facts already in memory. Remove a fact (by its id) only when the user clearly contradicts or retracts it.
- Never record uploaded files, secrets, passwords or keys.`;

/** The messages of one memory update call: instructions, the current memory, the conversation. */
export function memoryUpdateMessages(
  current: MemoryDocument,
  turns: readonly ConversationTurn[],
  now: Date,
): BaseMessage[] {
  return [
    new SystemMessage(INSTRUCTIONS),
    new HumanMessage(
      `Today is ${now.toISOString().slice(0, 10)}.\n\n<current_memory>\n${JSON.stringify(memoryForPrompt(current), null, 2)}\n</current_memory>\n\n<conversation>\n${conversationText(turns)}\n</conversation>`,
    ),
  ];
}

function memoryForPrompt(memory: MemoryDocument) {
  const summaries = (keys: readonly string[], sections: Record<string, { summary: string }>) =>
    Object.fromEntries(keys.map((key) => [key, sections[key]?.summary ?? ""]));
  return {
    user: summaries(USER_SECTIONS, memory.user),
    history: summaries(HISTORY_SECTIONS, memory.history),
    facts: memory.facts.map(({ id, content, category, confidence }) => ({
      id,
      content,
      category,
      confidence,
    })),
  };
}

/** The latest turns that fit the budget, oldest first. */
function conversationText(turns: readonly ConversationTurn[]): string {
  const lines: string[] = [];
  let used = 0;
  for (const turn of [...turns].reverse()) {
    const text =
      turn.text.length > MAX_TURN_CHARS ? `${turn.text.slice(0, MAX_TURN_CHARS)} […]` : turn.text;
    const line = `${turn.role === "user" ? "User" : "Assistant"}: ${text}`;
    if (used + line.length > MAX_CONVERSATION_CHARS && lines.length > 0) break;
    lines.push(line);
    used += line.length;
  }
  return lines.reverse().join("\n\n");
}
