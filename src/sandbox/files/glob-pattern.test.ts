import { describe, expect, it } from "vitest";
import { ValidationError } from "../../core/errors.js";
import { compileGlob, compilePathFilter } from "./glob-pattern.js";

describe("compileGlob", () => {
  it.each([
    ["*.md", "a.md", true],
    ["*.md", "docs/a.md", false],
    ["**/*.md", "a.md", true],
    ["**/*.md", "docs/deep/a.md", true],
    ["docs/**", "docs/a/b.txt", true],
    ["docs/**/b.txt", "docs/b.txt", true],
    ["a?c", "abc", true],
    ["a?c", "a/c", false],
    ["[ab]*.txt", "b1.txt", true],
    ["[!ab]*.txt", "b1.txt", false],
    ["file[0-9].log", "file7.log", true],
    ["*.{md,txt}", "x.txt", true],
    ["*.{md,txt}", "x.py", false],
    ["{src,test}/**/*.ts", "test/a/b.ts", true],
    ["a.b", "axb", false],
    ["\\*literal", "*literal", true],
  ])("%s matches %s: %s", (pattern, path, expected) => {
    expect(compileGlob(pattern)(path)).toBe(expected);
  });

  it("stays fast on patterns that make regex engines backtrack", () => {
    const matches = compileGlob("*a*a*a*a*a*a*a*a*a*a*b");
    expect(matches("a".repeat(200))).toBe(false);
    expect(compileGlob("**/**/**/**/**/x")(`${"d/".repeat(60)}y`)).toBe(false);
  });

  it("refuses empty patterns, unclosed braces and brace explosions", () => {
    expect(() => compileGlob("")).toThrow(ValidationError);
    expect(() => compileGlob("{a,b")).toThrow(ValidationError);
    expect(() => compileGlob("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}")).toThrow(
      ValidationError,
    );
  });
});

describe("compilePathFilter (grep's glob)", () => {
  it("matches a name at any depth without a slash, the relative path with one", () => {
    expect(compilePathFilter("*.py")("deep/dir/x.py")).toBe(true);
    expect(compilePathFilter("src/*.py")("deep/src/x.py")).toBe(false);
    expect(compilePathFilter("src/*.py")("src/x.py")).toBe(true);
  });
});
