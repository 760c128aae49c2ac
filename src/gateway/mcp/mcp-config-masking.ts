import { isPlainObject } from "../../core/config/env-expansion.js";
import { REDACTED } from "../../core/config/redact.js";
import { BadRequestError } from "../../core/errors.js";

/** Whole-string `$NAME` / `${NAME}`: a reference to a variable, not a secret, so shown as is. */
const ENV_REFERENCE = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})$/;
const SECRET_MAPS = ["env", "headers"] as const;

type RawServer = Record<string, unknown>;

/**
 * A server entry as the API shows it: every env and header value is `***` (header names like
 * `Authorization` and env names like `GITHUB_TOKEN` stay visible; a `$VAR` reference is shown,
 * it is a name, not a value), and a password inside the URL is `***`.
 */
export function maskServer(entry: RawServer): RawServer {
  const out: RawServer = { ...entry };
  for (const key of SECRET_MAPS) {
    const map = entry[key];
    if (isPlainObject(map)) {
      out[key] = Object.fromEntries(
        Object.entries(map).map(([name, value]) => [
          name,
          typeof value === "string" && ENV_REFERENCE.test(value) ? value : REDACTED,
        ]),
      );
    }
  }
  if (typeof entry.url === "string") out.url = maskUrl(entry.url);
  return out;
}

export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = REDACTED;
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * Puts the stored secrets back where a client sent the masks it was shown (a UI round-trips
 * GET → edit → PUT). A mask is only honoured while the server still points where it did —
 * same transport, command and args, or URL — so a secret cannot be redirected to another
 * server by editing around its mask. A mask with nothing stored behind it is a 400.
 */
export function restoreMaskedValues(
  name: string,
  incoming: RawServer,
  existing: RawServer | undefined,
): RawServer {
  const restored: RawServer = { ...incoming };
  let usedMask = false;
  if (
    existing &&
    typeof incoming.url === "string" &&
    typeof existing.url === "string" &&
    incoming.url !== existing.url &&
    incoming.url === maskUrl(existing.url)
  ) {
    restored.url = existing.url;
    usedMask = true;
  }
  for (const key of SECRET_MAPS) {
    const map = incoming[key];
    if (!isPlainObject(map)) continue;
    const stored = existing && isPlainObject(existing[key]) ? existing[key] : {};
    restored[key] = Object.fromEntries(
      Object.entries(map).map(([field, value]) => {
        if (value !== REDACTED) return [field, value];
        if (!(field in stored)) {
          throw new BadRequestError(
            `mcp_servers.${name}.${key}.${field} is "${REDACTED}" but no value is stored for it; send the real value.`,
          );
        }
        usedMask = true;
        return [field, stored[field]];
      }),
    );
  }
  if (usedMask && existing) assertSameEndpoint(name, restored, existing);
  return restored;
}

function assertSameEndpoint(name: string, next: RawServer, existing: RawServer): void {
  const after = endpointOf(next);
  const before = endpointOf(existing);
  const changed = (Object.keys(after) as Array<keyof typeof after>).find(
    (key) => after[key] !== before[key],
  );
  if (changed) {
    throw new BadRequestError(
      `mcp_servers.${name}: masked values ("${REDACTED}") cannot be reused after changing ${changed}; send the real values.`,
    );
  }
}

/** Where a server entry points: what a stored secret is bound to. */
function endpointOf(entry: RawServer): {
  type: string;
  command: string;
  args: string;
  url: string;
} {
  const type = entry.type ?? entry.transport ?? (entry.url && !entry.command ? "http" : "stdio");
  return {
    type: String(type),
    command: String(entry.command ?? ""),
    args: JSON.stringify(entry.args ?? []),
    url: String(entry.url ?? ""),
  };
}
