/**
 * Web: the workspace's bundle (what index.html loads before any lazy chunk, the chat's chunk,
 * everything; raw and gzip) and rendering in Chromium against a real gateway — a new chat and a
 * thread of 500 messages seeded through the API — while a scripted answer streams: time until
 * the latest message is on screen, frames dropped (requestAnimationFrame gaps > 1.5 frames) and
 * long tasks (PerformanceObserver).
 */
import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import type { BenchContext, BenchScript, ScriptReport, Table } from "../lib/bench-script.js";
import { fixed, integer, kib, ms } from "../lib/format.js";
import { medianOf } from "../lib/stats.js";
import { buildWebWithManifest, measureBundle, type Sizes } from "./bundle-size.js";
import { measureThreadRender, type RenderFigures, seedThread } from "./thread-render.js";
import { startWebBenchServer } from "./web-server.js";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const FIGURES = [
  "readyMs",
  "loadLongTasks",
  "loadLongTaskMs",
  "streamSeconds",
  "frames",
  "lateFrames",
  "droppedFrames",
  "longestGapMs",
  "streamLongTasks",
  "streamLongTaskMs",
  "rowsInDom",
] as const satisfies readonly (keyof RenderFigures)[];

function streamScript(words: number) {
  const answer = Array.from({ length: words }, (_, index) => `word${index}`).join(" ");
  return {
    answer,
    lastWord: `word${words - 1}`,
    script: [{ match: "^Stream", stream_delay_ms: 15, turns: [{ content: answer }] }],
  };
}

function sizeRow(name: string, sizes: Sizes): string[] {
  return [name, integer(sizes.files), kib(sizes.bytes), kib(sizes.gzipBytes)];
}

async function bundleTable(
  ctx: BenchContext,
  outDir: string,
): Promise<{ table: Table; notes: string[] }> {
  ctx.log("building the web workspace");
  await buildWebWithManifest(outDir);
  const bundle = await measureBundle(outDir);
  return {
    table: {
      title: "Web bundle (JavaScript, kB = 1024 bytes)",
      columns: ["what", "files", "raw kB", "gzip kB"],
      textColumns: 1,
      rows: [
        sizeRow("initial: index.html's entry and its static imports", bundle.initialJs),
        sizeRow("chat: its lazy chunk (requested at start)", bundle.chatJs),
        sizeRow("total: every chunk of the build", bundle.totalJs),
      ],
    },
    notes: [
      `Initial files: ${bundle.initialFiles.map((f) => `${f.file.replace(/^assets\//, "")} ${kib(f.bytes)} kB`).join(", ")}.`,
    ],
  };
}

async function renderTable(
  ctx: BenchContext,
  webRoot: string,
): Promise<{ table: Table; notes: string[] }> {
  const messages = ctx.quick ? 50 : 500;
  const { script, lastWord } = streamScript(ctx.quick ? 30 : 200);
  const server = await startWebBenchServer(webRoot, script);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  try {
    const cases = [
      { name: "new chat", count: 0, readyText: "What should Fawn do?" },
      {
        name: `thread of ${messages} messages`,
        count: messages,
        readyText: `Answer number ${messages - 1}.`,
      },
    ];
    const rows: string[][] = [];
    for (const item of cases) {
      const reps: RenderFigures[] = [];
      for (let rep = 0; rep < ctx.reps; rep++) {
        ctx.log(`${item.name}: repetition ${rep + 1}/${ctx.reps}`);
        const threadId = item.count > 0 ? await seedThread(server.apiUrl, item.count) : null;
        reps.push(
          await measureThreadRender(browser, server.url, {
            path: threadId ? `/chats/${threadId}` : "/",
            readyText: item.readyText,
            prompt: "Stream an answer, please",
            lastWord,
          }),
        );
      }
      const m = medianOf(reps, FIGURES);
      rows.push([
        item.name,
        ms(m.readyMs),
        `${integer(m.loadLongTasks)} / ${ms(m.loadLongTaskMs)}`,
        fixed(m.streamSeconds, 1),
        integer(m.frames),
        integer(m.lateFrames),
        integer(m.droppedFrames),
        ms(m.longestGapMs),
        `${integer(m.streamLongTasks)} / ${ms(m.streamLongTaskMs)}`,
        integer(m.rowsInDom),
      ]);
    }
    return {
      table: {
        title: "Chat rendering in Chromium (1440×900, headless)",
        columns: [
          "thread",
          "latest message on screen ms",
          "load long tasks n / ms",
          "stream s",
          "frames",
          "late frames",
          "frames dropped",
          "longest gap ms",
          "stream long tasks n / ms",
          "rows in DOM",
        ],
        textColumns: 1,
        rows,
      },
      notes: [
        `"latest message on screen": from navigation start until the chat shows its latest message (a new chat: its welcome), polled every frame; served by \`fawn serve\`'s gateway on 127.0.0.1 (SQLite), the thread seeded through \`POST /threads/{id}/state\`.`,
        `While a scripted answer of ${ctx.quick ? 30 : 200} words streams (one word per 15 ms): requestAnimationFrame gaps over 1.5 × 16.7 ms are "late frames"; "frames dropped" counts the frames they skipped. Long tasks are PerformanceObserver's (> 50 ms).`,
        "Headless Chromium on a shared 2-core machine: the figures move with its load.",
      ],
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

export const webBench: BenchScript = {
  name: "web",
  title: "Web",
  async run(ctx): Promise<ScriptReport> {
    const outDir = await mkdtemp(join(tmpdir(), "fawn-bench-web-dist-"));
    try {
      const bundle = await bundleTable(ctx, outDir);
      const hasChromium = await access(CHROMIUM_PATH).then(
        () => true,
        () => false,
      );
      if (!hasChromium) {
        return {
          tables: [bundle.table],
          targets: [],
          notes: [...bundle.notes, `Rendering not measured: ${CHROMIUM_PATH} is missing.`],
        };
      }
      const render = await renderTable(ctx, outDir);
      return {
        tables: [bundle.table, render.table],
        targets: [],
        notes: [...bundle.notes, ...render.notes],
      };
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  },
};
