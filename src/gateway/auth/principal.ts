/** Who a request acts for. Every owner-scoped route reads `userId` from here and nowhere else. */
export interface Principal {
  userId: string;
  /** How the caller was recognised: `disabled` (no auth, the default user), a login `session`, or an API `token`. */
  via: "disabled" | "session" | "token";
}
