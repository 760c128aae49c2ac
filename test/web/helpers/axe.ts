import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core on the page as it is now and returns its serious and critical violations, each
 * as one readable line (rule, help, the first elements it names). `[]` means the page passes.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)",
  )) as AxeViolation[];
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => JSON.stringify(node.target))
          .join(", ")}`,
    );
}
