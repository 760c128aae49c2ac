/**
 * What the scripted model does with each shipped public skill: the tool calls that follow the
 * skill's steps (after it read SKILL.md), the file it delivers, and what proves the helper
 * script and the delivered file are right.
 */
import { expect } from "vitest";

export interface ToolCallStep {
  name: string;
  args: Record<string, unknown>;
}

export interface SkillRun {
  skill: string;
  /** The skill's steps after reading its SKILL.md, one model turn each. */
  steps: ToolCallStep[];
  /** The file presented at the end. */
  output: string;
  /** `outputs`: every tool message, SKILL.md first; `file`: the delivered file's text. */
  check(result: { outputs: string[]; file: string }): void;
}

const WS = "/mnt/user-data/workspace";
const OUT = "/mnt/user-data/outputs";
const SKILLS = "/mnt/skills/public";

const write = (path: string, content: string): ToolCallStep => ({
  name: "write_file",
  args: { description: "write", path, content },
});
const bash = (command: string): ToolCallStep => ({
  name: "bash",
  args: { description: "run the skill's helper", command },
});

const REPORT = `${OUT}/solar-research.md`;
const REPORT_TEXT = `# Rooftop solar payback

## Answer
Payback is about 8 years [1], shorter where feed-in tariffs apply [2].

## Findings
Module prices fell 40% since 2020 [1][2].

## Open questions
Battery lifetimes are a single-source figure.

## Sources
[1] Solar cost report - https://energy.example.org/costs (2026-01)
[2] Tariff survey - https://tariffs.example.org/survey (2025-11)
`;

const DIFF = `diff --git a/src/users.py b/src/users.py
--- a/src/users.py
+++ b/src/users.py
@@ -3,2 +3,3 @@ def find(db, name):
     cursor = db.cursor()
-    return cursor.execute("SELECT * FROM users WHERE name = ?", (name,))
+    print("looking up", name)
+    return cursor.execute(f"SELECT * FROM users WHERE name = '{name}'")
`;

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fawn Bakery</title>
<style>:root { --accent: #0b63c4; } body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 70ch; }</style>
</head>
<body>
<header><h1>Fawn Bakery</h1></header>
<main>
<section><h2>Bread</h2><p>Sourdough every morning.</p></section>
<section><h2>Order</h2><label for="email">Email</label><input id="email" name="email" type="email"><button>Send</button></section>
</main>
<footer><p>Open daily 7-14.</p></footer>
</body>
</html>
`;

const OUTLINE = `# Quarterly review
Team Fawn, Q2
---
## Revenue grew 40%
- New customers: 120
- Churn fell to 2%
Note: thank the sales team
---
## Next: hire two engineers
1. Backend
2. Frontend
`;

export const PUBLIC_SKILL_RUNS: SkillRun[] = [
  {
    skill: "deep-research",
    steps: [
      write(`${WS}/notes.md`, "- payback about 8 years [1]\n- tariffs shorten it [2]\n"),
      write(REPORT, REPORT_TEXT),
      bash(`python3 ${SKILLS}/deep-research/scripts/check_citations.py ${REPORT}`),
    ],
    output: REPORT,
    check: ({ outputs, file }) => {
      expect(outputs[3]).toContain("OK: 2 sources cited");
      expect(file).toContain("## Sources");
    },
  },
  {
    skill: "chart-making",
    steps: [
      write(`${WS}/chart.csv`, "quarter,revenue (EUR k)\nQ1,120\nQ2,168\nQ3,150\n"),
      bash(
        `python3 ${SKILLS}/chart-making/scripts/svg_chart.py ${WS}/chart.csv ${OUT}/chart.svg --type bar --title "Revenue peaked in Q2" --y-label "EUR thousand"`,
      ),
    ],
    output: `${OUT}/chart.svg`,
    check: ({ outputs, file }) => {
      expect(outputs[2]).toContain("bar chart, 3 labels, 1 series");
      expect(file.startsWith("<svg")).toBe(true);
      expect(file).toContain("Revenue peaked in Q2");
      // Three bars, each with its value as a tooltip.
      expect(file.match(/<title>revenue \(EUR k\) Q\d: \d+<\/title><\/rect>/g)).toHaveLength(3);
    },
  },
  {
    skill: "web-page",
    steps: [
      write(`${OUT}/bakery.html`, PAGE),
      bash(`python3 ${SKILLS}/web-page/scripts/check_page.py ${OUT}/bakery.html`),
    ],
    output: `${OUT}/bakery.html`,
    check: ({ outputs, file }) => {
      expect(outputs[2]).toContain("OK: 'Fawn Bakery'");
      expect(file).toContain("<h1>Fawn Bakery</h1>");
    },
  },
  {
    skill: "slide-deck",
    steps: [
      write(`${WS}/slides.md`, OUTLINE),
      bash(
        `python3 ${SKILLS}/slide-deck/scripts/build_deck.py ${WS}/slides.md ${OUT}/review.html --title "Quarterly review" && python3 ${SKILLS}/web-page/scripts/check_page.py ${OUT}/review.html`,
      ),
    ],
    output: `${OUT}/review.html`,
    check: ({ outputs, file }) => {
      expect(outputs[2]).toContain("3 slides");
      expect(outputs[2]).not.toContain("warning:");
      expect(outputs[2]).toContain("OK: 'Quarterly review'");
      expect(file.match(/<section /g)).toHaveLength(3);
      expect(file).toContain('<aside class="notes">thank the sales team</aside>');
    },
  },
  {
    skill: "code-review",
    steps: [
      write(`${WS}/change.diff`, DIFF),
      bash(`python3 ${SKILLS}/code-review/scripts/review_diff.py ${WS}/change.diff`),
      write(
        `${OUT}/code-review.md`,
        "## Summary\nRequest changes: the lookup is open to SQL injection.\n\n## Findings\n| Severity | Where | Problem | Fix |\n|---|---|---|---|\n| blocker | src/users.py:5 | f-string SQL | keep the placeholder |\n",
      ),
    ],
    output: `${OUT}/code-review.md`,
    check: ({ outputs, file }) => {
      expect(outputs[2]).toContain("| src/users.py | 2 | 1 |");
      expect(outputs[2]).toContain("src/users.py:4 - debug output left in");
      expect(outputs[2]).toContain("src/users.py:5 - SQL built from strings");
      expect(outputs[2]).toContain("No test file changed");
      expect(file).toContain("| blocker | src/users.py:5 |");
    },
  },
];
