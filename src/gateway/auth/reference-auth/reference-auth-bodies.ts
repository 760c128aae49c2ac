import type { Context } from "hono";
import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "../../../auth/credentials-policy.js";
import { ValidationError } from "../../../core/errors.js";
import { parseWith } from "../../http/validation.js";

const email = z.string().min(1).max(320);
// Longer than the policy allows, so an over-long password gets the policy's message.
const password = z
  .string()
  .min(1)
  .max(MAX_PASSWORD_LENGTH * 4);

/** `/register` and `/initialize`: `{email, password, remember_me?}` as JSON. */
export const newAccountBody = z.strictObject({
  email,
  password,
  remember_me: z.boolean().default(true),
});

/** `/change-password`: the reference sends `new_email` only in its forced-setup flow. */
export const changePasswordBody = z.strictObject({
  current_password: password,
  new_password: password,
  new_email: email.nullish(),
  remember_me: z.boolean().nullish(),
});

/** A form boolean as the reference reads one (`true`/`false`, `1`/`0`, `on`/`off`, `yes`/`no`). */
const formBoolean = z
  .enum(["true", "false", "1", "0", "on", "off", "yes", "no"])
  .transform((value) => ["true", "1", "on", "yes"].includes(value));

/**
 * `/login/local`: an OAuth2 password form (`username` is the email). `grant_type`, `scope`,
 * `client_id` and `client_secret` belong to that form and are accepted and ignored.
 */
const loginForm = z.strictObject({
  username: email,
  password,
  remember_me: formBoolean.default(true),
  grant_type: z.literal("password").optional(),
  scope: z.string().max(1000).optional(),
  client_id: z.string().max(1000).optional(),
  client_secret: z.string().max(1000).optional(),
});

export type LoginForm = z.output<typeof loginForm>;

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** The login form, or a 422 naming what is wrong (a JSON body, a file, a missing field). */
export async function readLoginForm(c: Context): Promise<LoginForm> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.includes(type)) {
    throw new ValidationError(
      "Send the login as a form (application/x-www-form-urlencoded) with username and password fields.",
    );
  }
  const fields = await c.req.parseBody();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value !== "string") {
      throw new ValidationError(`Form field "${key.slice(0, 64)}" must be text, not a file.`);
    }
  }
  return parseWith(loginForm, fields, "body");
}
