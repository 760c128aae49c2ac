/** The SPA's two routes: `/` (a new chat) and `/chats/<thread id>`. */

const CHAT_PATH = /^\/chats\/([A-Za-z0-9_-]{1,64})\/?$/;

export function threadIdFromPath(pathname: string): string | null {
  return CHAT_PATH.exec(pathname)?.[1] ?? null;
}

export function pathForThread(threadId: string | null): string {
  return threadId ? `/chats/${threadId}` : "/";
}
