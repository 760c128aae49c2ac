/**
 * The SPA's routes: `/` (a new chat), `/chats/<thread id>`, `/teams[/<team id>]`, `/agents`,
 * `/scheduled-tasks` and `/settings[/<section>]`.
 */

const CHAT_PATH = /^\/chats\/([A-Za-z0-9_-]{1,64})\/?$/;
const TEAMS_PATH = /^\/teams(?:\/([A-Za-z0-9_-]{1,64}))?\/?$/;
const SETTINGS_PATH = /^\/settings(?:\/([a-z-]{1,32}))?\/?$/;
const AGENTS_PATH = /^\/agents\/?$/;
const SCHEDULED_TASKS_PATH = /^\/scheduled-tasks\/?$/;

export type Route =
  | { page: "chat"; threadId: string | null }
  | { page: "teams"; teamId: string | null }
  | { page: "settings"; section: string | null }
  | { page: "agents" }
  | { page: "scheduled-tasks" };

export function threadIdFromPath(pathname: string): string | null {
  return CHAT_PATH.exec(pathname)?.[1] ?? null;
}

export function pathForThread(threadId: string | null): string {
  return threadId ? `/chats/${threadId}` : "/";
}

export function routeFromPath(pathname: string): Route {
  const teams = TEAMS_PATH.exec(pathname);
  if (teams) return { page: "teams", teamId: teams[1] ?? null };
  const settings = SETTINGS_PATH.exec(pathname);
  if (settings) return { page: "settings", section: settings[1] ?? null };
  if (AGENTS_PATH.test(pathname)) return { page: "agents" };
  if (SCHEDULED_TASKS_PATH.test(pathname)) return { page: "scheduled-tasks" };
  return { page: "chat", threadId: threadIdFromPath(pathname) };
}

export function pathForRoute(route: Route): string {
  switch (route.page) {
    case "chat":
      return pathForThread(route.threadId);
    case "teams":
      return route.teamId ? `/teams/${route.teamId}` : "/teams";
    case "settings":
      return route.section ? `/settings/${route.section}` : "/settings";
    case "agents":
      return "/agents";
    case "scheduled-tasks":
      return "/scheduled-tasks";
  }
}
