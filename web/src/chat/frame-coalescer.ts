/**
 * Hands on at most one value per animation frame: a stream that delivers a token per event
 * (hundreds a second) re-renders the conversation once a frame, with the latest value.
 * The scheduler is injected (requestAnimationFrame in the page) so the rule is unit tested
 * without a browser.
 */
export class FrameCoalescer<T> {
  private pending: { value: T } | null = null;
  private scheduled: number | null = null;

  constructor(
    private readonly apply: (value: T) => void,
    private readonly schedule: (run: () => void) => number,
    private readonly unschedule: (handle: number) => void,
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
