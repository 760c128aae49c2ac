import { ValidationError } from "../../core/errors.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Names that look like they hold a secret or a connection string. */
const SECRET_NAME =
  /KEY|SECRET|TOKEN|PASS|PWD|CREDENTIAL|DSN|AUTH|COOKIE|SESSION|PRIVATE|DATABASE|REDIS|POSTGRES|MYSQL|MONGO|AMQP/i;

/** The environment an isolated sandbox starts from: nothing of the host's. */
export const ISOLATED_BASE_ENV: Readonly<Record<string, string>> = {
  PATH: "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin",
  HOME: "/tmp",
  TMPDIR: "/tmp",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  TERM: "dumb",
};

/** Injected variables must be plain names; values travel in the environment, never the command. */
export function assertValidEnv(env: Record<string, string> | undefined): Record<string, string> {
  if (!env) return {};
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name)) {
      throw new ValidationError(
        `Invalid environment variable name "${name}"; use letters, digits and "_", not starting with a digit.`,
      );
    }
    if (typeof value !== "string" || value.includes("\0")) {
      throw new ValidationError(`Environment variable ${name} must be a string without NUL bytes.`);
    }
  }
  return env;
}

/** The host environment minus anything secret-looking: the local provider's starting point. */
export function hostEnvWithoutSecrets(
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !SECRET_NAME.test(name)) kept[name] = value;
  }
  return kept;
}
