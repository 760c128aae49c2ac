import { Client } from "@langchain/langgraph-sdk";
import type { Browser } from "playwright-core";

/** A frame later than 1.5 × 16.7 ms after the one before counts as a dropped frame. */
const FRAME_MS = 1000 / 60;
const LATE_FRAME_MS = 1.5 * FRAME_MS;

export interface RenderFigures {
  /** From navigation start until the latest message is on screen. */
  readyMs: number;
  /** Long tasks (> 50 ms, PerformanceObserver) until then. */
  loadLongTasks: number;
  loadLongTaskMs: number;
  /** While one scripted answer streams into the thread. */
  streamSeconds: number;
  frames: number;
  /** Frame gaps longer than 1.5 frames, and the frames they skipped. */
  lateFrames: number;
  droppedFrames: number;
  longestGapMs: number;
  streamLongTasks: number;
  streamLongTaskMs: number;
  /** Message rows in the DOM once the answer is in (the virtual list's window). */
  rowsInDom: number;
}

/** Runs in the page before its scripts: frame gaps and long tasks, recorded on request. */
const PROBE = `
  window.__bench = { gaps: [], longTasks: [], recording: false, last: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  const frame = (time) => {
    const bench = window.__bench;
    if (bench.recording) {
      if (bench.last) bench.gaps.push(time - bench.last);
      bench.last = time;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
`;

interface ProbeState {
  gaps: number[];
  longTasks: { start: number; duration: number }[];
}

/** A seeded thread's messages: question and answer pairs, some Markdown in each answer. */
export function seededMessages(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0
      ? { type: "human", id: `h${index}`, content: `Question number ${index}: what about it?` }
      : {
          type: "ai",
          id: `a${index}`,
          content: `Answer number ${index}.\n\n- a **point**\n- \`code\` and a [link](https://example.com)\n\nA closing line of plain text.`,
        },
  );
}

/** A thread holding `count` messages, written through the API (`POST /threads/{id}/state`). */
export async function seedThread(apiUrl: string, count: number): Promise<string> {
  const client = new Client({ apiUrl, apiKey: null });
  const thread = await client.threads.create();
  if (count > 0)
    await client.threads.updateState(thread.thread_id, {
      values: { messages: seededMessages(count) },
    });
  return thread.thread_id;
}

/**
 * Opens `path` in a fresh 1440×900 page, waits until `ready` text is on screen, then sends
 * `prompt` and records frames and long tasks until the answer's `lastWord` is in and the run is over.
 */
export async function measureThreadRender(
  browser: Browser,
  url: string,
  input: { path: string; readyText: string; prompt: string; lastWord: string },
): Promise<RenderFigures> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  try {
    await page.addInitScript(PROBE);
    await page.goto(`${url}${input.path}`);
    await page.waitForFunction(
      `document.querySelector('[data-testid="messages"]')?.textContent?.includes(${JSON.stringify(input.readyText)})`,
      undefined,
      { polling: "raf" },
    );
    const readyMs = (await page.evaluate("performance.now()")) as number;
    const load = (await page.evaluate("window.__bench")) as ProbeState;
    await page.getByLabel("Message").fill(input.prompt);
    await page.evaluate("window.__bench.recording = true; window.__bench.mark = performance.now()");
    const started = performance.now();
    await page.getByLabel("Message").press("Enter");
    await page
      .locator(".message.assistant")
      .last()
      .getByText(input.lastWord, { exact: false })
      .waitFor();
    await page.getByRole("button", { name: "Send" }).waitFor();
    const streamSeconds = (performance.now() - started) / 1000;
    const state = (await page.evaluate(
      "window.__bench.recording = false; ({ ...window.__bench, mark: window.__bench.mark })",
    )) as ProbeState & { mark: number };
    const rowsInDom = await page.locator(".message-row").count();
    const late = state.gaps.filter((gap) => gap > LATE_FRAME_MS);
    const streamTasks = state.longTasks.filter((task) => task.start >= state.mark);
    const loadTasks = load.longTasks.filter((task) => task.start <= readyMs);
    return {
      readyMs,
      loadLongTasks: loadTasks.length,
      loadLongTaskMs: loadTasks.reduce((sum, task) => sum + task.duration, 0),
      streamSeconds,
      frames: state.gaps.length,
      lateFrames: late.length,
      droppedFrames: late.reduce((sum, gap) => sum + Math.round(gap / FRAME_MS) - 1, 0),
      longestGapMs: state.gaps.reduce((max, gap) => Math.max(max, gap), 0),
      streamLongTasks: streamTasks.length,
      streamLongTaskMs: streamTasks.reduce((sum, task) => sum + task.duration, 0),
      rowsInDom,
    };
  } finally {
    await context.close();
  }
}
