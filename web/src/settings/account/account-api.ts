import { apiFetch, apiJson } from "../../api/http.js";
import type { ServerInfo, User } from "../../api/types.js";

/** `/info`, `/auth/*` and the change-password route as this panel calls them (docs/API.md, Auth). */
export interface ApiToken {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
}

export type Account = { mode: string; user: null } | { mode: "local"; user: User };

const JSON_HEADERS = { "content-type": "application/json" };

export async function readAccount(): Promise<Account> {
  const info = await apiJson<ServerInfo>("/info");
  if (info.auth_mode !== "local") return { mode: info.auth_mode, user: null };
  const me = await apiJson<{ user: User }>("/auth/me");
  return { mode: "local", user: me.user };
}

export async function changePassword(current: string, next: string): Promise<void> {
  await apiJson("/v1/auth/change-password", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ current_password: current, new_password: next }),
  });
}

export function listTokens(): Promise<ApiToken[]> {
  return apiJson<ApiToken[]>("/auth/tokens");
}

export function createToken(name: string): Promise<ApiToken & { token: string }> {
  return apiJson("/auth/tokens", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify(name === "" ? {} : { name }),
  });
}

export async function deleteToken(id: string): Promise<void> {
  await apiFetch(`/auth/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
}
