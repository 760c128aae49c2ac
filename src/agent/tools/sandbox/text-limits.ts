/**
 * Keeps the head of `text` and ends it with `marker(totalChars)`; the result never exceeds
 * `maxChars` (0 or less disables). Used where the start matters most: listings and file reads.
 */
export function headTruncate(
  text: string,
  maxChars: number,
  marker: (totalChars: number) => string,
): string {
  if (maxChars <= 0 || text.length <= maxChars) return text;
  const note = marker(text.length);
  const room = maxChars - note.length;
  if (room <= 0) return text.slice(0, maxChars);
  return `${text.slice(0, room)}${note}`;
}
