import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (bench/lib/ is two levels below it). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
