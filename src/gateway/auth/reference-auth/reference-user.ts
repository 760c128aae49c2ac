import type { UserRecord } from "../../../ports/user-store.js";

/** The reference's user payload (`/me`, `/register`, `/initialize`). */
export interface ReferenceUser {
  id: string;
  email: string;
  system_role: "admin" | "user";
  /** The reference's forced first-login setup; Fawn accounts never need it. */
  needs_setup: false;
  /** Fawn has local accounts only. */
  oauth_provider: null;
}

/**
 * Fawn users have no role column: an account is `admin` when `auth.admins` lists its email or
 * id, the same list Fawn's admin-only routes answer.
 */
export function referenceUser(
  user: Pick<UserRecord, "id" | "email">,
  admins: readonly string[],
): ReferenceUser {
  const listed = new Set(admins.map((entry) => entry.trim().toLowerCase()));
  const admin = listed.has(user.id.toLowerCase()) || listed.has(user.email.toLowerCase());
  return {
    id: user.id,
    email: user.email,
    system_role: admin ? "admin" : "user",
    needs_setup: false,
    oauth_provider: null,
  };
}
