import { Hono } from "hono";
import { BadRequestError } from "../../../core/errors.js";
import { DEFAULT_USER_ID } from "../../../core/paths.js";
import type { GatewayEnv } from "../../http/gateway-env.js";
import type { ReferenceUser } from "./reference-user.js";

/** Auth off: the one user every request acts for, as the reference presents its own. */
const DEFAULT_USER: ReferenceUser = {
  id: DEFAULT_USER_ID,
  email: "default@fawn.local",
  system_role: "admin",
  needs_setup: false,
  oauth_provider: null,
};

const NO_ACCOUNTS =
  "Accounts are off on this server (auth.mode: disabled): every request acts for the default user. Run the web frontend with its auth disabled, or set auth.mode: local.";

/**
 * `/api/v1/auth/*` with `auth.mode: disabled`: the reference frontend's probes answer (set up,
 * no providers, the default user), and the routes that need accounts say why they cannot.
 */
export function referenceAuthDisabledRoutes(): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get("/setup-status", (c) => c.json({ needs_setup: false, registration_enabled: false }));
  app.get("/providers", (c) => c.json({ providers: [] }));
  app.get("/me", (c) => c.json(DEFAULT_USER));
  app.post("/logout", (c) => c.json({ message: "Successfully logged out" }));
  for (const path of ["/login/local", "/register", "/initialize", "/change-password"]) {
    app.post(path, () => {
      throw new BadRequestError(NO_ACCOUNTS);
    });
  }
  return app;
}
