import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AuthServices } from "../../auth/auth-services.js";
import { FawnError, NotFoundError } from "../../core/errors.js";
import { isValidId } from "../../core/ids.js";
import type { Logger } from "../../core/logger.js";
import type { GatewayEnv } from "../http/gateway-env.js";
import { parseWith, readJsonBody } from "../http/validation.js";
import type { Principal } from "./principal.js";

const createTokenBody = z.strictObject({ name: z.string().trim().min(1).max(100).optional() });

/**
 * Minting and revoking need a login session: a leaked token must not be able to mint successors
 * that outlive its own revocation.
 */
function requireSession(principal: Principal): void {
  if (principal.via !== "session") {
    throw new FawnError(
      "forbidden",
      "Manage API tokens from a login session; an API token cannot create or revoke tokens.",
    );
  }
}

/** `/auth/tokens`: personal API tokens. The secret is in the creation answer and nowhere else. */
export function tokenRoutes(
  services: AuthServices,
  requireCaller: MiddlewareHandler<GatewayEnv>,
  log: Logger,
): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.use("*", requireCaller);

  app.post("/", async (c) => {
    const principal = c.get("principal");
    requireSession(principal);
    const body = parseWith(createTokenBody, await readJsonBody(c, { optional: true }), "body");
    const { token, record } = await services.tokens.create(principal.userId, body.name ?? "token");
    log.info({ user_id: principal.userId, token_id: record.id }, "API token created");
    return c.json({ ...record, token }, 201);
  });

  app.get("/", async (c) => c.json(await services.tokens.list(c.get("principal").userId)));

  app.delete("/:token_id", async (c) => {
    const principal = c.get("principal");
    requireSession(principal);
    const tokenId = c.req.param("token_id");
    // Unknown, malformed and foreign ids all read as "no such token".
    if (!isValidId(tokenId) || !(await services.tokens.revoke(principal.userId, tokenId))) {
      throw new NotFoundError("API token not found.");
    }
    log.info({ user_id: principal.userId, token_id: tokenId }, "API token revoked");
    return c.body(null, 204);
  });

  return app;
}
