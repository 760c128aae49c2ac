import type { ModelInfo } from "../api/types.js";

/** What the picker shows: the display name; the offline demo always says it is one. */
export function modelLabel(model: ModelInfo): string {
  const name = model.display_name?.trim() || model.name;
  if (model.offline_demo && !/offline/i.test(name)) return `${name} (offline demo)`;
  return name;
}
