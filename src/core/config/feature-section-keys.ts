/**
 * Keys of the sections the agent's features parse themselves (their schemas live beside the
 * feature, above this layer). Listed here so a misspelt key there is reported like any other
 * unknown key; `test/config/feature-section-keys.test.ts` keeps each list equal to its schema.
 */
export const FEATURE_SECTION_KEYS: Readonly<Record<string, readonly string[]>> = {
  title: ["enabled", "max_words", "max_chars", "model_name", "prompt_template"],
  summarization: [
    "enabled",
    "model_name",
    "trigger",
    "keep",
    "trim_tokens_to_summarize",
    "summary_prompt",
    "skill_file_read_tool_names",
  ],
  loop_detection: [
    "enabled",
    "warn_threshold",
    "hard_limit",
    "window_size",
    "max_tracked_threads",
    "tool_freq_warn",
    "tool_freq_hard_limit",
    "tool_freq_overrides",
  ],
  tool_output: [
    "enabled",
    "externalize_min_chars",
    "preview_head_chars",
    "preview_tail_chars",
    "fallback_max_chars",
    "fallback_head_chars",
    "fallback_tail_chars",
    "storage_subdir",
    "exempt_tools",
    "tool_overrides",
  ],
  token_usage: ["enabled"],
};

/** Paths of keys in those sections that their feature does not read. */
export function unreadFeatureKeys(input: Record<string, unknown>): string[][] {
  const paths: string[][] = [];
  for (const [section, keys] of Object.entries(FEATURE_SECTION_KEYS)) {
    const value = input[section];
    if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
    for (const key of Object.keys(value)) if (!keys.includes(key)) paths.push([section, key]);
  }
  return paths;
}
