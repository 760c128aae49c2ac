import { Hono } from "hono";
import { z } from "zod";
import { resetMcpToolCache } from "../../agent/mcp/mcp-tool-cache.js";
import type { AuthProvider } from "../auth/auth-provider.js";
import type { GatewayServices } from "../gateway-services.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, readJsonBody } from "../http/validation.js";
import { McpConfigService } from "./mcp-config-service.js";
import { requireAdmin } from "./require-admin.js";

const replaceBody = z
  .object({
    mcp_servers: z.record(z.string(), z.unknown()).optional(),
    /** The file's own spelling, accepted too. */
    mcpServers: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((body) => body.mcp_servers !== undefined || body.mcpServers !== undefined, {
    message: "send {mcp_servers: {<name>: server}}",
  });

const toggleBody = z.strictObject({ server_name: z.string().min(1), enabled: z.boolean() });

/**
 * The reference's MCP admin routes: `GET/PUT/PATCH /mcp/config` (secrets masked as `***`;
 * a masked value sent back keeps the stored one) and `POST /mcp/cache/reset` (every MCP
 * session ends; the next run reconnects). Admin only when auth is on.
 */
export function mcpRoutes(s: GatewayServices, auth: AuthProvider): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const config = new McpConfigService(s.config.home);
  const logger = s.logger.child({ component: "mcp-config" });

  app.use("/mcp/*", async (c, next) => {
    await requireAdmin(c, auth, s.config.auth);
    await next();
  });

  app.get("/mcp/config", async (c) => c.json(await config.view()));

  app.put("/mcp/config", async (c) => {
    const body = parseWith(replaceBody, await readJsonBody(c), "body");
    const servers = body.mcp_servers ?? body.mcpServers ?? {};
    const view = await config.replace(servers);
    logger.info(
      { userId: c.get("principal").userId, servers: Object.keys(view.mcp_servers) },
      "MCP config replaced",
    );
    return c.json(view);
  });

  app.patch("/mcp/config", async (c) => {
    const body = parseWith(toggleBody, await readJsonBody(c), "body");
    const view = await config.setEnabled(body.server_name, body.enabled);
    logger.info(
      { userId: c.get("principal").userId, server: body.server_name, enabled: body.enabled },
      "MCP server switched",
    );
    return c.json(view);
  });

  app.post("/mcp/cache/reset", async (c) => {
    await resetMcpToolCache(s.config.home);
    logger.info({ userId: c.get("principal").userId }, "MCP tool cache reset");
    return c.json({ success: true, message: "MCP sessions closed; the next run reconnects." });
  });

  return app;
}
