/** What SDK gateway tests send and how they read a run's stream. */

/** A run input of one user message. */
export const say = (text: string) => ({ messages: [{ role: "user", content: text }] });

/** One part the SDK's stream yields. */
export interface Part {
  event: string;
  data: unknown;
  id?: string;
}

/** Reads a stream to its end, or up to and including the first part `until` accepts. */
export async function collect(
  stream: AsyncIterable<unknown>,
  until?: (part: Part) => boolean,
): Promise<Part[]> {
  const out: Part[] = [];
  for await (const item of stream) {
    const part = item as Part;
    out.push(part);
    if (until?.(part)) break;
  }
  return out;
}
