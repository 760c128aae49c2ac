import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { ValidationError } from "./errors.js";

/** Thread and run ids: UUIDs or 1–64 characters of `[A-Za-z0-9_-]`. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function newRunId(): string {
  return randomUUID();
}

export function newThreadId(): string {
  return randomUUID();
}

/** A fresh id for each process incarnation: run writes are fenced on it (see `WriteFence`). */
export function newWorkerId(): string {
  return `${hostname()}:${randomUUID().replaceAll("-", "")}`;
}

export function isValidId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

export function assertValidId(kind: "thread" | "run" | "assistant", value: unknown): string {
  if (!isValidId(value)) {
    throw new ValidationError(
      `Invalid ${kind} id; use a UUID or 1-64 characters of letters, digits, "_" or "-".`,
    );
  }
  return value;
}
