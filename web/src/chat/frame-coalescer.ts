import { useEffect, useRef, useState } from "react";

/**
 * Hands on at most one value per animation frame: a stream that delivers a token per event
 * (hundreds a second) re-renders the conversation once a frame, with the latest value.
 * The scheduler is injected so the rule is unit tested without a browser.
 */
export class FrameCoalescer<T> {
  private pending: { value: T } | null = null;
  private scheduled: number | null = null;

  constructor(
    private readonly apply: (value: T) => void,
    private readonly schedule: (run: () => void) => number = (run) => requestAnimationFrame(run),
    private readonly unschedule: (handle: number) => void = (handle) =>
      cancelAnimationFrame(handle),
  ) {}

  push(value: T): void {
    this.pending = { value };
    if (this.scheduled !== null) return;
    this.scheduled = this.schedule(() => {
      this.scheduled = null;
      const next = this.pending;
      this.pending = null;
      if (next) this.apply(next.value);
    });
  }

  dispose(): void {
    if (this.scheduled !== null) this.unschedule(this.scheduled);
    this.scheduled = null;
    this.pending = null;
  }
}

/**
 * `value`, but while `coalesce` is on it changes at most once per animation frame. Off (no
 * stream running), every change shows at once: a send, a stop or a loaded thread never waits.
 */
export function useFrameValue<T>(value: T, coalesce: boolean): T {
  const [shown, setShown] = useState(value);
  const coalescer = useRef<FrameCoalescer<T> | null>(null);
  useEffect(() => {
    const current = new FrameCoalescer<T>(setShown);
    coalescer.current = current;
    return () => current.dispose();
  }, []);
  useEffect(() => {
    if (coalesce) coalescer.current?.push(value);
    else setShown(value);
  }, [value, coalesce]);
  return coalesce ? shown : value;
}
