import { type PointerEvent, type ReactNode, useRef, useState } from "react";

const STORAGE_KEY = "fawn.artifacts.width";
export const MIN_WIDTH = 280;
const DEFAULT_WIDTH = 520;
/** The chat keeps at least this much of the window. */
const CHAT_MIN = 360;
const KEY_STEP = 32;

function maxWidth(): number {
  return Math.max(MIN_WIDTH, window.innerWidth - CHAT_MIN - 256);
}

function clampWidth(width: number): number {
  return Math.round(Math.min(maxWidth(), Math.max(MIN_WIDTH, width)));
}

function storedWidth(): number {
  try {
    const raw = Number(window.localStorage.getItem(STORAGE_KEY));
    return Number.isFinite(raw) && raw > 0 ? clampWidth(raw) : clampWidth(DEFAULT_WIDTH);
  } catch {
    return clampWidth(DEFAULT_WIDTH);
  }
}

function storeWidth(width: number): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, String(width));
  } catch {
    // Not remembered: the width lasts for this page only.
  }
}

/** The panel's width in pixels, remembered across reloads (kept within the window). */
export function usePanelWidth(): [number, (width: number) => void] {
  const [width, setWidth] = useState(storedWidth);
  const set = (next: number): void => {
    const clamped = clampWidth(next);
    setWidth(clamped);
    storeWidth(clamped);
  };
  return [width, set];
}

/**
 * The panel's left edge: drag it, or focus it and press the arrow keys (Home/End: narrowest and
 * widest). A window splitter in ARIA's sense, so screen readers announce the width.
 */
export function ResizeHandle({
  width,
  onResize,
  label,
}: {
  width: number;
  onResize: (width: number) => void;
  label: string;
}): ReactNode {
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startWidth: width };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    const start = drag.current;
    // The panel is on the right: dragging its left edge leftwards widens it.
    if (start) onResize(start.startWidth + start.startX - event.clientX);
  };
  const onPointerUp = (): void => {
    drag.current = null;
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: <hr> cannot take focus or be dragged; a focusable separator is ARIA's window splitter.
    <div
      className="resize-handle"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={maxWidth()}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={(event) => {
        const moves: Record<string, number> = {
          ArrowLeft: width + KEY_STEP,
          ArrowRight: width - KEY_STEP,
          Home: MIN_WIDTH,
          End: maxWidth(),
        };
        const next = moves[event.key];
        if (next === undefined) return;
        event.preventDefault();
        onResize(next);
      }}
    />
  );
}
