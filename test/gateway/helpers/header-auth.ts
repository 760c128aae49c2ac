import { FawnError } from "../../../src/core/errors.js";
import type { AuthProvider } from "../../../src/gateway/auth/auth-provider.js";
import type { Principal } from "../../../src/gateway/auth/principal.js";

/**
 * A test AuthProvider: the caller is whoever `x-test-user` names; no header is 401. Plugs into
 * the same seam a `local` provider will, so routes are exercised exactly as in production.
 */
export class HeaderAuthProvider implements AuthProvider {
  readonly mode = "local" as const;

  async authenticate(request: Request): Promise<Principal> {
    const user = request.headers.get("x-test-user");
    if (!user) throw new FawnError("unauthorized", "Not authenticated: send credentials.");
    return { userId: user, via: "token" };
  }
}
