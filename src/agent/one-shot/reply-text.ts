/**
 * A one-shot reply without what models wrap answers in: closed `<think>` blocks (reasoning
 * models) and one Markdown code fence around the whole answer.
 */
export function stripModelWrapping(reply: string): string {
  const withoutThinking = reply.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  const fenced = /^```[\w-]*\s*\n([\s\S]*?)\n?```$/.exec(withoutThinking);
  return (fenced?.[1] ?? withoutThinking).trim();
}
