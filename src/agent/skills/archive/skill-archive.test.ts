import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
  buildZip,
  skillMarkdown,
  type ZipEntrySpec,
} from "../../../../test/helpers/zip-archive.js";
import { skillInstallConfigSchema } from "../../../core/config/skills-install-schema.js";
import { isFawnError } from "../../../core/errors.js";
import { unpackSkillArchive } from "./skill-archive.js";

const limits = skillInstallConfigSchema.parse({});
const fixture = (name: string) =>
  readFile(new URL(`../../../../test/fixtures/skills/${name}`, import.meta.url));

async function refusal(archive: Buffer, options: { scan?: boolean; limits?: object } = {}) {
  try {
    await unpackSkillArchive(archive, {
      limits: { ...limits, ...options.limits },
      scan: options.scan ?? true,
    });
  } catch (error) {
    if (!isFawnError(error)) throw error;
    return { status: error.status, detail: error.message, details: error.details };
  }
  throw new Error("the archive was accepted");
}

const ok = (extra: ZipEntrySpec[] = []) =>
  buildZip([{ name: "SKILL.md", data: skillMarkdown("demo") }, ...extra]);

describe("unpackSkillArchive", () => {
  it("unpacks an archive made by Info-ZIP: one top folder, dotfiles dropped, exec bit kept", async () => {
    const skill = await unpackSkillArchive(await fixture("csv-report.skill"), {
      limits,
      scan: true,
    });
    expect(skill.name).toBe("csv-report");
    expect(skill.content).toContain("# CSV report");
    expect(skill.files.map((file) => [file.path, file.mode.toString(8)]).sort()).toEqual([
      ["references/format.md", "644"],
      ["scripts/summarize.sh", "755"],
    ]);
  });

  it("accepts SKILL.md at the archive root, stored or deflated", async () => {
    const stored = buildZip([
      { name: "SKILL.md", data: skillMarkdown("demo"), deflate: false },
      { name: "notes/a.txt", data: "a" },
    ]);
    const skill = await unpackSkillArchive(stored, { limits, scan: true });
    expect([skill.name, skill.files.map((file) => file.path)]).toEqual(["demo", ["notes/a.txt"]]);
  });

  it.each([
    ["../evil.txt", "leaves the skill folder"],
    ["a/../../evil.txt", "leaves the skill folder"],
    ["/etc/cron.d/x", "absolute path"],
    ["C:/Windows/x", "absolute path"],
    ["a\\..\\x", "backslash"],
    ["scripts/run.sh:hidden", "colon"],
  ])("refuses the entry name %s (400)", async (name, why) => {
    const answer = await refusal(ok([{ name, data: "x" }]));
    expect(answer.status).toBe(400);
    expect(answer.detail).toContain(why);
  });

  it("refuses a symlink entry, also one made by Info-ZIP", async () => {
    const made = await refusal(await fixture("csv-report-symlink.skill"));
    expect(made).toMatchObject({ status: 400 });
    expect(made.detail).toContain("symbolic link");
    const built = await refusal(ok([{ name: "link", data: "/etc/passwd", mode: 0o120777 }]));
    expect(built.detail).toContain("symbolic link");
  });

  it("refuses what is not a ZIP, and a damaged one", async () => {
    expect((await refusal(Buffer.from("just text, not a zip at all"))).detail).toContain(
      "not a ZIP archive",
    );
    const archive = ok();
    const truncated = archive.subarray(0, archive.length - 30);
    expect((await refusal(truncated)).status).toBe(400);
    const renamed = buildZip([
      { name: "SKILL.md", data: skillMarkdown("demo") },
      { name: "safe.txt", localName: "../x.txt", data: "x" },
    ]);
    expect((await refusal(renamed)).detail).toContain("differently");
  });

  it("refuses an archive over the size, file-count and archive-size limits (413)", async () => {
    const big = ok([{ name: "big.txt", data: randomBytes(4096).toString("hex") }]);
    expect(await refusal(big, { limits: { max_total_bytes: 2048 } })).toMatchObject({
      status: 413,
    });
    const many = ok(Array.from({ length: 12 }, (_, i) => ({ name: `f${i}.txt`, data: "x" })));
    const counted = await refusal(many, { limits: { max_files: 10 } });
    expect(counted.status).toBe(413);
    expect(counted.detail).toContain("max_files");
    expect(await refusal(big, { limits: { max_archive_bytes: 1024 } })).toMatchObject({
      status: 413,
    });
  });

  it("refuses a zip bomb by ratio, and an entry that unpacks past its declared size", async () => {
    const bomb = ok([{ name: "zeros.txt", data: Buffer.alloc(2 * 1024 * 1024) }]);
    const ratio = await refusal(bomb);
    expect(ratio.status).toBe(400);
    expect(ratio.detail).toContain("zip bomb");
    const liar = ok([{ name: "liar.txt", data: Buffer.alloc(50_000, 7), declaredSize: 100 }]);
    expect((await refusal(liar)).detail).toContain("declared size");
  });

  it("refuses a missing, invalid or nested SKILL.md, and an executable binary", async () => {
    expect((await refusal(buildZip([{ name: "README.md", data: "hi" }]))).detail).toContain(
      "no SKILL.md",
    );
    const bad = buildZip([
      { name: "SKILL.md", data: "---\nname: Bad_Name\ndescription: d\n---\n" },
    ]);
    expect((await refusal(bad)).detail).toContain("hyphen-case");
    const none = buildZip([{ name: "SKILL.md", data: "no frontmatter" }]);
    expect((await refusal(none)).detail).toContain("frontmatter");
    const nested = ok([{ name: "sub/SKILL.md", data: skillMarkdown("inner") }]);
    expect((await refusal(nested)).detail).toContain("nested SKILL.md");
    const elf = ok([{ name: "bin/tool", data: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]) }]);
    expect((await refusal(elf)).detail).toContain("executable binary");
    const encoded = buildZip([{ name: "SKILL.md", data: Buffer.from([0xff, 0xfe, 0x00]) }]);
    expect((await refusal(encoded)).detail).toContain("UTF-8");
  });

  it("blocks secrets under skill_scan, and lets them through with it off", async () => {
    const leaky = ok([{ name: "keys/id.pem", data: "-----BEGIN RSA PRIVATE KEY-----\nabc\n" }]);
    const blocked = await refusal(leaky);
    expect(blocked.status).toBe(400);
    expect(blocked.detail).toContain("secret-private-key at keys/id.pem:1");
    expect(blocked.details).toMatchObject({ skill_name: "demo" });
    const skill = await unpackSkillArchive(leaky, { limits, scan: false });
    expect(skill.files).toHaveLength(1);
  });
});
