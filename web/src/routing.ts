/** The SPA's routes: `/` (a new chat), `/chats/<thread id>`, `/teams` and `/teams/<team id>`. */

const CHAT_PATH = /^\/chats\/([A-Za-z0-9_-]{1,64})\/?$/;
const TEAMS_PATH = /^\/teams(?:\/([A-Za-z0-9_-]{1,64}))?\/?$/;

export type Route =
  | { page: "chat"; threadId: string | null }
  | { page: "teams"; teamId: string | null };

export function threadIdFromPath(pathname: string): string | null {
  return CHAT_PATH.exec(pathname)?.[1] ?? null;
}

export function pathForThread(threadId: string | null): string {
  return threadId ? `/chats/${threadId}` : "/";
}

export function routeFromPath(pathname: string): Route {
  const teams = TEAMS_PATH.exec(pathname);
  if (teams) return { page: "teams", teamId: teams[1] ?? null };
  return { page: "chat", threadId: threadIdFromPath(pathname) };
}

export function pathForRoute(route: Route): string {
  if (route.page === "chat") return pathForThread(route.threadId);
  return route.teamId ? `/teams/${route.teamId}` : "/teams";
}
