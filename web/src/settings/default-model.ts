/**
 * The model a new chat starts with, kept in localStorage under the key the chat's picker already
 * uses (`fawn.model`), so choosing a default here and picking in a chat are one setting. A chat's
 * own pick can be kept under `fawn.thread-model.<thread id>`.
 */

export const DEFAULT_MODEL_KEY = "fawn.model";

const THREAD_MODEL_PREFIX = "fawn.thread-model.";

interface OfferedModel {
  name: string;
  is_default: boolean;
}

/** The part of Web Storage used here, typed locally so this module also loads outside a page. */
interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function storage(): KeyValueStorage | undefined {
  return (globalThis as { localStorage?: KeyValueStorage }).localStorage;
}

function readKey(key: string): string | null {
  try {
    return storage()?.getItem(key) || null;
  } catch {
    return null;
  }
}

function writeKey(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}

/** The saved default if the server still offers it, else the server's default, else the first. */
export function defaultModelChoice(models: readonly OfferedModel[]): string | null {
  const saved = readKey(DEFAULT_MODEL_KEY);
  if (saved !== null && models.some((model) => model.name === saved)) return saved;
  return (models.find((model) => model.is_default) ?? models[0])?.name ?? null;
}

export function saveDefaultModel(name: string): void {
  writeKey(DEFAULT_MODEL_KEY, name);
}

export function threadModelKey(threadId: string): string {
  return `${THREAD_MODEL_PREFIX}${threadId}`;
}

/** A chat's own pick if the server still offers it, else the default for new chats. */
export function chatModelChoice(
  threadId: string | null,
  models: readonly OfferedModel[],
): string | null {
  const picked = threadId === null ? null : readKey(threadModelKey(threadId));
  if (picked !== null && models.some((model) => model.name === picked)) return picked;
  return defaultModelChoice(models);
}

export function saveChatModel(threadId: string, name: string): void {
  writeKey(threadModelKey(threadId), name);
}
