import { ValidationError } from "../core/errors.js";

const MAX_EMAIL_LENGTH = 254;
/** One `@`, no whitespace, a dot-free local part allowed: deliverability is not our check. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 8;
/** Bounded so a huge "password" cannot be used to make hashing expensive. */
export const MAX_PASSWORD_LENGTH = 1024;

/** The canonical form of an email: trimmed, lower case (login is case-insensitive). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Normalize and check an email for a new account, or throw a 422. */
export function acceptEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (normalized.length > MAX_EMAIL_LENGTH || !EMAIL_SHAPE.test(normalized)) {
    throw new ValidationError("Invalid email address; use the form name@example.org.");
  }
  return normalized;
}

/** Check a new password, or throw a 422 that says the rule (never the password). */
export function acceptPassword(password: string): string {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new ValidationError(
      `Password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`,
    );
  }
  return password;
}
