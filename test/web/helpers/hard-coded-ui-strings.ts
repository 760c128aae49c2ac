import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import ts from "typescript";

/** Attributes a user reads or hears: their literal text must come from the catalog. */
const READ_ATTRIBUTES = new Set(["aria-label", "title", "placeholder", "alt"]);

/** Words that are the same in every language: the product's name. */
const BRAND = /\bFawn\b/g;

export interface HardCodedString {
  file: string;
  line: number;
  text: string;
}

const hasLetters = (text: string): boolean => /\p{L}/u.test(text.replace(BRAND, ""));

/** The literal texts an expression can show: both arms of `?:`, the right of `&&`, … */
function shownLiterals(node: ts.Expression): ts.Node[] {
  if (ts.isParenthesizedExpression(node)) return shownLiterals(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node];
  if (ts.isTemplateExpression(node)) return [node];
  if (ts.isConditionalExpression(node))
    return [...shownLiterals(node.whenTrue), ...shownLiterals(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return shownLiterals(node.right);
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken)
      return [...shownLiterals(node.left), ...shownLiterals(node.right)];
  }
  return [];
}

function literalText(node: ts.Node): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" ");
  return node.getText();
}

/** Every JSX text and read attribute literal with letters in one `.tsx` source. */
export function hardCodedStringsIn(file: string, source: string): HardCodedString[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: HardCodedString[] = [];
  const report = (node: ts.Node, text: string): void => {
    const clean = text.replace(/\s+/g, " ").trim();
    if (!hasLetters(clean)) return;
    const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
    found.push({ file, line, text: clean });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) report(node, node.text);
    else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent))
      for (const literal of shownLiterals(node.expression)) report(literal, literalText(literal));
    else if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(tree))) {
      const value = node.initializer;
      if (value && ts.isStringLiteral(value)) report(value, value.text);
      else if (value && ts.isJsxExpression(value) && value.expression)
        for (const literal of shownLiterals(value.expression))
          report(literal, literalText(literal));
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

async function tsxFilesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return tsxFilesUnder(path);
      return Promise.resolve(entry.name.endsWith(".tsx") ? [path] : []);
    }),
  );
  return nested.flat().sort();
}

/** Hard-coded strings of every `.tsx` under `root`, files named relative to `base`. */
export async function hardCodedStrings(root: string, base: string): Promise<HardCodedString[]> {
  const found: HardCodedString[] = [];
  for (const path of await tsxFilesUnder(root))
    found.push(...hardCodedStringsIn(relative(base, path), await readFile(path, "utf8")));
  return found;
}
