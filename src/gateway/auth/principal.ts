/** Who a request acts for. Every owner-scoped route reads `userId` from here and nowhere else. */
export interface Principal {
  userId: string;
  /** How the caller was recognised: `disabled` (no auth, the default user), later `session`/`token`. */
  via: "disabled" | "session" | "token";
}
