import { fileURLToPath } from "node:url";

/** The DeerFlow-shaped config.yaml of the config and doctor suites. */
export const DEERFLOW_FIXTURE = fileURLToPath(
  new URL("../fixtures/deerflow/config.yaml", import.meta.url),
);

/** Provider keys the entries read through `$VAR`; made up, nothing is called. */
export const FAKE_KEYS: Record<string, string> = Object.fromEntries(
  [
    "OPENAI_API_KEY",
    "VOLCENGINE_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "MIMO_API_KEY",
    "STEPFUN_API_KEY",
    "MINIMAX_API_KEY",
    "VLLM_API_KEY",
    "SERPER_API_KEY",
    "BRAVE_SEARCH_API_KEY",
    "TAVILY_API_KEY",
    "EXA_API_KEY",
    "FIRECRAWL_API_KEY",
    "GROUNDROUTE_API_KEY",
    "CRW_API_KEY",
    "BROWSERLESS_TOKEN",
    "CRAWL4AI_TOKEN",
  ].map((name) => [name, `test-${name.toLowerCase()}`]),
);
