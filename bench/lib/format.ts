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

export function ratio(value: number): string {
  if (!Number.isFinite(value)) return "-";
  return `${value < 10 ? fixed(value, 2) : integer(value)}×`;
}

export function kib(bytes: number): string {
  return Number.isFinite(bytes) ? fixed(bytes / 1024, 1) : "-";
}
