/** Number formatting shared by every table, so figures read the same everywhere. */

export function fixed(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return "-";
  return value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

export function integer(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "-";
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "-";
  return value < 10 ? fixed(value, 2) : value < 100 ? fixed(value, 1) : integer(value);
}

/**
 * Rounded down (3 decimals below 1, 2 below 10), so a ratio just under a target's threshold
 * never prints as the threshold itself.
 */
export function ratio(value: number): string {
  if (!Number.isFinite(value)) return "-";
  if (value >= 10) return `${integer(Math.floor(value))}×`;
  const digits = value < 1 ? 3 : 2;
  const scale = 10 ** digits;
  return `${(Math.floor(value * scale) / scale).toFixed(digits)}×`;
}

export function kib(bytes: number): string {
  return Number.isFinite(bytes) ? fixed(bytes / 1024, 1) : "-";
}
