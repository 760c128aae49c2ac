import { ApiError, apiFetch, apiJson } from "./http.js";

/*
 * The extension host's HTTP surface: `GET /api/extensions` lists the loaded plugins and
 * `POST /api/extensions/<namespace>/actions/<name>` runs a plugin action (JSON object in, JSON out,
 * errors as `{"detail", "code"}` like the rest of the API).
 */

/** Path (under `/api`) of something a plugin serves: `/extensions/<namespace>/<segments…>`. */
export function extensionPath(namespace: string, ...segments: string[]): string {
  return ["/extensions", namespace, ...segments]
    .map((part, i) => (i === 0 ? part : encodeURIComponent(part)))
    .join("/");
}

export function extensionAction<T>(
  namespace: string,
  name: string,
  payload: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<T> {
  return apiJson<T>(extensionPath(namespace, "actions", name), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload),
    ...(signal ? { signal } : {}),
  });
}

/** Namespaces of the loaded plugins; none when the server has no extension host (404). */
export async function loadedExtensions(): Promise<string[]> {
  try {
    return namespacesOf(await apiJson<unknown>("/extensions"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

/**
 * Reads the namespaces from the listing, tolerating its likely shapes: an array, or an object
 * with `extensions`/`plugins`, of namespace strings or objects with `namespace` (or `name`).
 */
export function namespacesOf(body: unknown): string[] {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const list = Array.isArray(body) ? body : (record.extensions ?? record.plugins);
  if (!Array.isArray(list)) return [];
  const names: string[] = [];
  for (const item of list) {
    if (typeof item === "string") names.push(item);
    else if (typeof item === "object" && item !== null) {
      const entry = item as Record<string, unknown>;
      const name = entry.namespace ?? entry.name;
      if (typeof name === "string") names.push(name);
    }
  }
  return names;
}

/** The bytes a plugin route answers with (for downloads and previews). */
export async function extensionBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const response = await apiFetch(path, signal ? { signal } : {});
  return response.blob();
}
