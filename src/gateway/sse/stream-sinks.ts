import type { ServerResponse } from "node:http";

/**
 * Where a run stream's coalesced frame text goes. A promise means "full: write no more until it
 * settles"; writes while full return the same wait.
 */
export interface ChunkSink {
  write(text: string): Promise<void> | undefined;
}

/**
 * Node's response, written directly once its headers are out: no web-stream chunk, byte encoding
 * and read promise per write. Full while the socket's buffer is, until `drain` (or `close`).
 */
export class ResponseSink implements ChunkSink {
  private full: Promise<void> | undefined;

  constructor(private readonly outgoing: ServerResponse) {}

  write(text: string): Promise<void> | undefined {
    const { outgoing } = this;
    if (outgoing.writableEnded || outgoing.destroyed) return undefined;
    if (outgoing.write(text) && !this.full) return undefined;
    this.full ??= new Promise<void>((resolve) => {
      const done = (): void => {
        outgoing.off("drain", done);
        outgoing.off("close", done);
        this.full = undefined;
        resolve();
      };
      outgoing.on("drain", done);
      outgoing.on("close", done);
    });
    return this.full;
  }
}

/** A web `ReadableStream` body: enqueues bytes; full until the reader asks for more (a pull). */
export class ControllerSink implements ChunkSink {
  private full: Promise<void> | undefined;
  private waiting: (() => void) | null = null;
  private readonly encoder = new TextEncoder();

  constructor(private readonly controller: ReadableStreamDefaultController<Uint8Array>) {}

  write(text: string): Promise<void> | undefined {
    this.controller.enqueue(this.encoder.encode(text));
    if ((this.controller.desiredSize ?? 0) > 0 && !this.full) return undefined;
    this.full ??= new Promise<void>((resolve) => {
      this.waiting = resolve;
    });
    return this.full;
  }

  /** Lets a writer waiting for the reader go (a pull, or the end of the stream). */
  release(): void {
    const waiting = this.waiting;
    this.waiting = null;
    this.full = undefined;
    waiting?.();
  }
}
