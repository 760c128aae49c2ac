/** `["models", 0, "api_key"]` → `models[0].api_key`: how warnings and errors name a config key. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out || "(root)";
}
