import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { cpus, freemem, loadavg, release, totalmem } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./paths.js";

/** Packages whose versions decide the figures: ours, the engine, the peers, the drivers. */
const PACKAGES = [
  "@langchain/langgraph",
  "@langchain/core",
  "@langchain/langgraph-api",
  "@langchain/langgraph-sdk",
  "@langchain/langgraph-checkpoint-sqlite",
  "hono",
  "@hono/node-server",
  "better-sqlite3",
  "kysely",
  "pg",
] as const;

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  /** 1-minute load average when the bench started (other work on the box skews the figures). */
  loadAverage: number;
  os: string;
  node: string;
  fawn: string;
  commit: string;
  packages: Array<{ name: string; version: string }>;
}

async function versionOf(packageJson: string): Promise<string> {
  try {
    const text = await readFile(packageJson, "utf8");
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && "version" in parsed) {
      return String(parsed.version);
    }
  } catch {
    // Not installed: say so in the table rather than fail the run.
  }
  return "not installed";
}

/** `abc1234`, with `+ uncommitted changes` when the tree differs from it (figures then too). */
async function commitOf(): Promise<string> {
  const run = promisify(execFile);
  try {
    const head = (await run("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot })).stdout;
    const status = (await run("git", ["status", "--porcelain", "--", "src"], { cwd: repoRoot }))
      .stdout;
    return `${head.trim()}${status.trim() ? " + uncommitted changes in src/" : ""}`;
  } catch {
    return "unknown";
  }
}

export async function machineInfo(): Promise<MachineInfo> {
  const cpuList = cpus();
  const gib = (bytes: number): number => Math.round((bytes / 1024 ** 3) * 10) / 10;
  return {
    cpu: cpuList[0]?.model.trim() ?? "unknown",
    cores: cpuList.length,
    memoryGiB: gib(totalmem()),
    freeMemoryGiB: gib(freemem()),
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    os: `${process.platform} ${release()} ${process.arch}`,
    node: process.version,
    fawn: await versionOf(join(repoRoot, "package.json")),
    commit: await commitOf(),
    packages: await Promise.all(
      PACKAGES.map(async (name) => ({
        name,
        version: await versionOf(join(repoRoot, "node_modules", name, "package.json")),
      })),
    ),
  };
}
