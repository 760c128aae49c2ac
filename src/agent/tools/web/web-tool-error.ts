/**
 * A failure the model should read and act on. Web tools never throw at the model: they return
 * `Error: <message>`, so a dead link or a provider outage is one more observation, not a crash.
 */
export class WebToolError extends Error {
  override readonly name = "WebToolError";
}

/** The text a failed call returns: known failures keep their wording, others say what broke. */
export function describeWebToolFailure(
  error: unknown,
  doingWhat: string,
  secrets: readonly string[],
): string {
  const message =
    error instanceof WebToolError
      ? error.message
      : `${doingWhat} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  return `Error: ${redactSecrets(message, secrets)}`;
}

/** Masks each secret wherever it appears (a provider may echo a bad key back in its error). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would mask ordinary words; real keys are long.
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}
