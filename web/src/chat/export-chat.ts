import type { MessageGroup } from "./message-groups.js";

/** The conversation as Markdown: user turns quoted, answers as written, tool steps listed. */
export function chatAsMarkdown(title: string, groups: ReadonlyArray<MessageGroup>): string {
  const parts = [`# ${title}`];
  for (const group of groups) {
    if (group.kind === "human") {
      const files = group.files.map((file) => file.filename).join(", ");
      parts.push(`**You:**${files ? ` _(attached: ${files})_` : ""}\n\n${quote(group.text)}`);
    } else if (group.kind === "assistant") {
      parts.push(`**Fawn:**\n\n${group.text}`);
    } else if (group.kind === "steps") {
      const tools = group.steps.flatMap((step) =>
        step.kind === "tool" ? [`- \`${step.name}\``] : [],
      );
      if (tools.length > 0) parts.push(`_Steps:_\n\n${tools.join("\n")}`);
    } else {
      parts.push(`**Fawn asks:** ${group.question}`);
    }
  }
  return `${parts.join("\n\n")}\n`;
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

/** A file name from the chat's title: letters, digits and dashes. */
export function exportFileName(title: string, extension: "md" | "json"): string {
  const base =
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "chat";
  return `${base}.${extension}`;
}

/** Offers `content` as a download (an object URL on a transient link). */
export function downloadText(name: string, type: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
