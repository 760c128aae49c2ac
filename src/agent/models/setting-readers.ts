import { isPlainObject } from "../../core/config/env-expansion.js";
import { ConfigError } from "../../core/errors.js";

/**
 * Typed reads of provider settings. Each read removes the key, so what is left afterwards is the
 * provider-specific rest that is passed through untouched.
 */
export class SettingReader {
  constructor(
    private readonly modelName: string,
    private readonly settings: Record<string, unknown>,
  ) {}

  private take(key: string): unknown {
    const value = this.settings[key];
    delete this.settings[key];
    return value;
  }

  string(...keys: string[]): string | undefined {
    let found: string | undefined;
    for (const key of keys) {
      const value = this.take(key);
      if (value === undefined || value === "") continue;
      if (typeof value !== "string") throw this.invalid(key, "a string");
      found ??= value;
    }
    return found;
  }

  number(key: string): number | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value)) throw this.invalid(key, "a number");
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value !== "boolean") throw this.invalid(key, "true or false");
    return value;
  }

  stringList(key: string): string[] | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value === "string") return [value];
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string"))
      throw this.invalid(key, "a list of strings");
    return value;
  }

  stringMap(key: string): Record<string, string> | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (!isPlainObject(value) || !Object.values(value).every((item) => typeof item === "string"))
      throw this.invalid(key, "a mapping of strings");
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
  }

  object(key: string): Record<string, unknown> | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (!isPlainObject(value)) throw this.invalid(key, "a mapping");
    return value;
  }

  /** Seconds in config.yaml (the reference's unit), milliseconds for the JS clients. */
  secondsAsMs(...keys: string[]): number | undefined {
    let found: number | undefined;
    for (const key of keys) found ??= this.number(key);
    return found === undefined ? undefined : Math.round(found * 1000);
  }

  /** Everything not read yet. */
  rest(): Record<string, unknown> {
    return { ...this.settings };
  }

  private invalid(key: string, expected: string): ConfigError {
    return new ConfigError(`Model "${this.modelName}": ${key} must be ${expected}.`);
  }
}

/** Removes keys whose value is undefined: the clients treat "present but undefined" as set. */
export function dropUndefined<T extends object>(fields: T): T {
  for (const key of Object.keys(fields) as Array<keyof T>) {
    if (fields[key] === undefined) delete fields[key];
  }
  return fields;
}
