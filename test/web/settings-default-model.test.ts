/**
 * The default-model contract between Settings and the chat: the default is stored under the
 * chat picker's own key (`fawn.model`), honoured only while the server still offers it; a chat's
 * own pick wins for that chat; without storage everything falls back to the server's default.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  chatModelChoice,
  DEFAULT_MODEL_KEY,
  defaultModelChoice,
  saveChatModel,
  saveDefaultModel,
  threadModelKey,
} from "../../web/src/settings/default-model.js";

const MODELS = [
  { name: "quick", is_default: false },
  { name: "deep", is_default: true },
];

interface FakeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function fakeStorage(): FakeStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
  };
}

function installStorage(get: () => FakeStorage): void {
  Object.defineProperty(globalThis, "localStorage", { configurable: true, get });
}

describe("the default model for new chats", () => {
  let storage: FakeStorage;
  beforeEach(() => {
    storage = fakeStorage();
    installStorage(() => storage);
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, "localStorage");
  });

  it("is the server's default until one is saved, under the chat picker's key", () => {
    expect(defaultModelChoice(MODELS)).toBe("deep");
    saveDefaultModel("quick");
    expect(DEFAULT_MODEL_KEY).toBe("fawn.model");
    expect(storage.getItem("fawn.model")).toBe("quick");
    expect(defaultModelChoice(MODELS)).toBe("quick");
  });

  it("falls back when the saved model is no longer offered, or to the first model", () => {
    saveDefaultModel("retired");
    expect(defaultModelChoice(MODELS)).toBe("deep");
    expect(defaultModelChoice([{ name: "only", is_default: false }])).toBe("only");
    expect(defaultModelChoice([])).toBeNull();
  });

  it("a chat's own pick wins for that chat only", () => {
    saveDefaultModel("quick");
    saveChatModel("thread-1", "deep");
    expect(storage.getItem(threadModelKey("thread-1"))).toBe("deep");
    expect(chatModelChoice("thread-1", MODELS)).toBe("deep");
    expect(chatModelChoice("thread-2", MODELS)).toBe("quick");
    expect(chatModelChoice(null, MODELS)).toBe("quick");
  });

  it("without storage, uses the server's default", () => {
    installStorage(() => {
      throw new Error("storage disabled");
    });
    saveDefaultModel("quick");
    expect(defaultModelChoice(MODELS)).toBe("deep");
  });
});
