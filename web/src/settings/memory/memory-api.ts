import { apiFetch, apiJson } from "../../api/http.js";

/** `/memory*` as this panel calls it (docs/API.md, Memory); every change answers the whole Memory. */
export interface MemorySection {
  summary: string;
  updatedAt: string;
}

export interface MemoryFact {
  id: string;
  content: string;
  category: string;
  confidence: number;
  createdAt: string;
  source: string;
  updatedAt?: string;
}

export interface Memory {
  version: string;
  revision: number;
  lastUpdated: string;
  user: { workContext: MemorySection; personalContext: MemorySection; topOfMind: MemorySection };
  history: {
    recentMonths: MemorySection;
    earlierContext: MemorySection;
    longTermBackground: MemorySection;
  };
  facts: MemoryFact[];
}

export interface FactFields {
  content: string;
  category: string;
  confidence: number;
}

const JSON_HEADERS = { "content-type": "application/json" };

export function readMemory(): Promise<Memory> {
  return apiJson<Memory>("/memory");
}

export function addFact(fact: FactFields): Promise<Memory> {
  return apiJson<Memory>("/memory/facts", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify(fact),
  });
}

export function changeFact(id: string, fact: FactFields): Promise<Memory> {
  return apiJson<Memory>(`/memory/facts/${encodeURIComponent(id)}`, {
    method: "PATCH",
    headers: JSON_HEADERS,
    body: JSON.stringify(fact),
  });
}

export function deleteFact(id: string): Promise<Memory> {
  return apiJson<Memory>(`/memory/facts/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function clearMemory(): Promise<Memory> {
  return apiJson<Memory>("/memory", { method: "DELETE" });
}

/** The export as the server wrote it, for a download. */
export async function exportMemory(): Promise<Blob> {
  return (await apiFetch("/memory/export")).blob();
}

export function importMemory(document: unknown): Promise<Memory> {
  return apiJson<Memory>("/memory/import", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify(document),
  });
}

/** The categories the server knows by name; a person may type any other label. */
export const FACT_CATEGORIES = [
  "preference",
  "knowledge",
  "context",
  "behavior",
  "goal",
  "correction",
] as const;
