/**
 * Every message namespace under web/src/i18n/messages has the same keys in English and Simplified
 * Chinese, no blank translation, and the same `{placeholders}` in both.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  LOCALES,
  type MessageNamespace,
  placeholdersOf,
} from "../../web/src/i18n/define-messages.js";

const MESSAGES_DIR = fileURLToPath(new URL("../../web/src/i18n/messages/", import.meta.url));

function isNamespace(value: unknown): value is MessageNamespace<string> {
  return typeof value === "object" && value !== null && "en" in value && "zh-CN" in value;
}

async function namespaces(): Promise<MessageNamespace<string>[]> {
  const found: MessageNamespace<string>[] = [];
  for (const file of (await readdir(MESSAGES_DIR)).filter((name) => name.endsWith(".ts"))) {
    const module: Record<string, unknown> = await import(join(MESSAGES_DIR, file));
    for (const value of Object.values(module)) if (isNamespace(value)) found.push(value);
  }
  return found;
}

describe("the workspace's message catalog", () => {
  it("has every key in both languages, none blank, with matching placeholders", async () => {
    const all = await namespaces();
    expect(all.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const names = new Set<string>();
    for (const namespace of all) {
      if (names.has(namespace.name)) problems.push(`namespace ${namespace.name} is defined twice`);
      names.add(namespace.name);
      const keys = Object.keys(namespace.en);
      for (const locale of LOCALES) {
        const table = namespace[locale];
        for (const key of keys) {
          const text = table[key];
          if (typeof text !== "string" || text.trim() === "")
            problems.push(`${namespace.name}.${key} has no ${locale} text`);
          else if (placeholdersOf(text).join() !== placeholdersOf(namespace.en[key] ?? "").join())
            problems.push(
              `${namespace.name}.${key} (${locale}) has other placeholders than English`,
            );
        }
        for (const key of Object.keys(table))
          if (!keys.includes(key))
            problems.push(`${namespace.name}.${key} (${locale}) is not an English key`);
      }
    }
    expect(problems).toEqual([]);
  });
});
