/**
 * Live progress of a CLI run, read from the run's `values` stream: one line per model step, per
 * tool call (by name) and per tool result; a spinner between lines only when the output is a TTY.
 */

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** A message as the stream serializes it (`messageToDict`: flat, with `type`). */
export interface StreamedMessage {
  type?: string;
  name?: string;
  content?: unknown;
  status?: string;
  tool_calls?: Array<{ name?: string }>;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPIN_MS = 100;

export class ProgressPrinter {
  private seen = 0;
  private steps = 0;
  private frame = 0;
  private timer: NodeJS.Timeout | null = null;
  private spinnerShown = false;

  constructor(private readonly out: ProgressOutput) {}

  /** Start the spinner (TTY only). */
  start(): void {
    if (!this.out.isTTY || this.timer) return;
    this.timer = setInterval(() => this.spin(), SPIN_MS);
    this.timer.unref();
  }

  /** Print what is new since the last `values` snapshot. */
  onValues(messages: StreamedMessage[]): void {
    // The first snapshot holds the task itself (and any earlier history): nothing to report.
    for (const message of messages.slice(this.seen)) this.report(message);
    this.seen = Math.max(this.seen, messages.length);
  }

  line(text: string): void {
    this.clearSpinner();
    this.out.write(`${text}\n`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clearSpinner();
  }

  private report(message: StreamedMessage): void {
    if (message.type === "ai") {
      this.steps += 1;
      const calls = (message.tool_calls ?? []).map((call) => call.name ?? "?");
      const text = textOf(message.content);
      this.line(`• step ${this.steps}${text ? `: ${firstLine(text)}` : ""}`);
      for (const name of calls) this.line(`  → tool ${name}`);
    } else if (message.type === "tool") {
      const failed = message.status === "error";
      const detail = failed ? `: ${firstLine(textOf(message.content))}` : "";
      this.line(`  ${failed ? "✗" : "✓"} ${message.name ?? "tool"}${detail}`);
    }
  }

  private spin(): void {
    const glyph = FRAMES[this.frame % FRAMES.length] ?? "-";
    this.frame += 1;
    this.out.write(`\r${glyph} working…`);
    this.spinnerShown = true;
  }

  private clearSpinner(): void {
    if (!this.spinnerShown) return;
    this.out.write("\r\x1b[2K");
    this.spinnerShown = false;
  }
}

/** The text of a message's content (a string, or text blocks). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) =>
      typeof block === "object" &&
      block !== null &&
      "text" in block &&
      typeof block.text === "string"
        ? block.text
        : "",
    )
    .join("");
}

function firstLine(text: string, max = 100): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
