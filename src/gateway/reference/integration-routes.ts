import { Hono } from "hono";
import type { GatewayEnv } from "../http/gateway-env.js";

const NOT_AVAILABLE = "The Lark/Feishu integration is not available in Fawn.";

/**
 * `GET /integrations/lark/status` in the reference's shape, reporting the integration absent:
 * nothing installed, no CLI, no app, no sandbox runtime. The UI then offers nothing to set up.
 */
export function integrationRoutes(): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get("/integrations/lark/status", (c) =>
    c.json({
      installed: false,
      version: "",
      manifest_version: null,
      latest_available_version: null,
      runtime_version_mismatch: false,
      app_configured: false,
      app_id: null,
      app_brand: null,
      skills_expected: 0,
      skills_installed: 0,
      installed_skills: [],
      enabled_skills: [],
      install_path: "",
      cli: { available: false, path: null, version: null, error: NOT_AVAILABLE },
      auth: { status: "unavailable", message: NOT_AVAILABLE, user: null, verified: false },
      sandbox_runtime_mode: "none",
      sandbox_runtime_ready: false,
      sandbox_runtime_detail: NOT_AVAILABLE,
    }),
  );
  return app;
}
