import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { type CopyTemplate, copyElement, copyTemplateOf } from "./element-clone.js";
import { type ElementSnapshot, matchesSnapshot, snapshotElement } from "./element-snapshot.js";
import { ListCorruptError } from "./list-script.js";
import { contentRef, type EncodedElement } from "./list-values.js";
import { WeightedLru } from "./weighted-lru.js";

export interface ElementCodecOptions {
  /** Serialized bytes of the elements kept decoded, to be copied on read (default 16 MiB). */
  cachedDecodedBytes?: number;
  /** Serialized bytes of the encodings kept for reuse by later puts (default 32 MiB). */
  cachedEncodedBytes?: number;
}

/** A list channel's value, encoded: how many elements had to be serialized and hashed. */
export interface ListEncoding {
  elements: EncodedElement[];
  serialized: number;
  reused: number;
}

/** An encoding and the snapshot of the state it was made from. */
interface Known {
  element: EncodedElement;
  snapshot: ElementSnapshot;
}

/** A stored element decoded once: a private template to copy, and what its copies are known as. */
export interface Decoding {
  copy: CopyTemplate;
  known: Known;
}

/** Cached per ref: a decoding, or undefined for an element that must be decoded every time. */
interface TemplateEntry {
  decoding: Decoding | undefined;
  weight: number;
}

/** The encodings remembered for one thread's messages, by message id. */
interface ThreadEncodings {
  byId: Map<string, Known>;
  weight: number;
}

/** Decoded objects cost several times their serialized bytes in memory. */
const DECODED_WEIGHT_FACTOR = 4;
/** A snapshot costs about this many bytes per entry; an encoding is its bytes plus that. */
const SNAPSHOT_ENTRY_BYTES = 8;

/**
 * Serializes list elements (messages) and decodes them, once each. A put hands over the whole
 * list each time, mostly the same messages as last time: the codec remembers each message's ref,
 * bytes and snapshot by thread and message id (by object for elements without an id), so the next
 * put reuses them after one cheap comparison instead of serializing and hashing the message again
 * — a put costs serialization for its new messages only. The comparison is structural, so it
 * holds for any object that matches, including new instances LangGraph makes after a read. Reads
 * decode each stored element once into a private template and hand out copies; a read registers
 * its messages' encodings for its thread, so the run that reads a thread and then puts
 * checkpoints of it serializes none of what it read.
 */
export class ElementCodec {
  /** Encodings of elements without a message id, by the object a caller holds. */
  private readonly byObject = new WeakMap<object, Known>();
  private readonly threads: WeightedLru<string, ThreadEncodings>;
  /** Keyed by content ref, so immutable; shared by every thread of the saver. */
  private readonly templates: WeightedLru<string, TemplateEntry>;

  constructor(
    private readonly serde: SerializerProtocol,
    options: ElementCodecOptions = {},
  ) {
    this.templates = new WeightedLru(
      options.cachedDecodedBytes ?? 16 * 1024 * 1024,
      (entry) => entry.weight,
    );
    this.threads = new WeightedLru(
      options.cachedEncodedBytes ?? 32 * 1024 * 1024,
      (encodings) => encodings.weight,
    );
  }

  async encode(threadId: string, values: readonly unknown[]): Promise<ListEncoding> {
    const thread = this.threadEncodings(threadId);
    const elements = new Array<EncodedElement>(values.length);
    const serializing: Promise<void>[] = [];
    values.forEach((value, index) => {
      const carried = this.carried(thread, value);
      if (carried !== undefined) {
        elements[index] = carried;
        return;
      }
      serializing.push(
        this.serialize(thread, value).then((element) => {
          elements[index] = element;
        }),
      );
    });
    await Promise.all(serializing);
    this.threads.set(threadId, thread);
    return {
      elements,
      serialized: serializing.length,
      reused: values.length - serializing.length,
    };
  }

  /**
   * The decodings cached for `refs` right now. A read takes them while it loads (and fetches
   * bytes only for the rest), so an eviction before it decodes cannot leave it empty-handed.
   */
  cachedDecodings(refs: Iterable<string>): Map<string, Decoding> {
    const found = new Map<string, Decoding>();
    for (const ref of refs) {
      const decoding = this.templates.get(ref)?.decoding;
      if (decoding !== undefined) found.set(ref, decoding);
    }
    return found;
  }

  /**
   * Fresh objects equal to what the elements `refs` decode to: copies of `decodings` where given
   * (synchronously), else decoded from `elements`' bytes (and cached for the next read).
   */
  async decodeList(
    threadId: string,
    refs: readonly string[],
    decodings: ReadonlyMap<string, Decoding>,
    elements: ReadonlyMap<string, EncodedElement>,
  ): Promise<unknown[]> {
    const thread = this.threadEncodings(threadId);
    const values = new Array<unknown>(refs.length);
    const decoding: Promise<void>[] = [];
    refs.forEach((ref, index) => {
      const cached = decodings.get(ref);
      if (cached !== undefined) {
        values[index] = this.copy(thread, cached);
        return;
      }
      const element = elements.get(ref);
      if (element === undefined) throw new ListCorruptError(`Message ${ref} is missing.`);
      decoding.push(
        this.decodeBytes(thread, element).then((value) => {
          values[index] = value;
        }),
      );
    });
    await Promise.all(decoding);
    this.threads.set(threadId, thread);
    return values;
  }

  private async decodeBytes(thread: ThreadEncodings, element: EncodedElement): Promise<unknown> {
    const entry = this.templates.get(element.ref);
    if (entry?.decoding !== undefined) return this.copy(thread, entry.decoding);
    const decoded: unknown = await this.serde.loadsTyped(element.type, element.data);
    if (entry !== undefined) return decoded;
    // Only what a snapshot can vouch for is copied (the same walk checks the copies on put).
    const snapshot = snapshotElement(decoded);
    const copy = snapshot === undefined ? undefined : copyTemplateOf(decoded);
    const weight = element.data.byteLength * DECODED_WEIGHT_FACTOR + 64;
    if (snapshot === undefined || copy === undefined) {
      this.templates.set(element.ref, { decoding: undefined, weight });
      return decoded;
    }
    // The decoded object stays private as the template; the caller gets a copy.
    const decoding = { copy, known: { element, snapshot } };
    this.templates.set(element.ref, { decoding, weight });
    return this.copy(thread, decoding);
  }

  /** A copy of the template; the next put of the thread reuses its encoding. */
  private copy(thread: ThreadEncodings, decoding: Decoding): unknown {
    const value = copyElement(decoding.copy);
    this.remember(thread, value, decoding.known);
    return value;
  }

  private threadEncodings(threadId: string): ThreadEncodings {
    return this.threads.get(threadId) ?? { byId: new Map(), weight: 0 };
  }

  private remember(thread: ThreadEncodings, value: unknown, known: Known): void {
    if (typeof value !== "object" || value === null) return;
    const id = messageId(value);
    if (id === undefined) {
      this.byObject.set(value, known);
      return;
    }
    const previous = thread.byId.get(id);
    if (previous === known) return;
    thread.byId.set(id, known);
    thread.weight += weightOf(known) - (previous === undefined ? 0 : weightOf(previous));
  }

  /** The encoding of `value` from the last time, if it provably serializes the same now. */
  private carried(thread: ThreadEncodings, value: unknown): EncodedElement | undefined {
    if (typeof value !== "object" || value === null) return undefined;
    const id = messageId(value);
    const known = id === undefined ? this.byObject.get(value) : thread.byId.get(id);
    if (known === undefined || !matchesSnapshot(value, known.snapshot)) return undefined;
    return known.element;
  }

  private async serialize(thread: ThreadEncodings, value: unknown): Promise<EncodedElement> {
    // Snapshot before serializing and check it after: if the value changed in between, the
    // bytes may describe either state, so they are not remembered.
    const snapshot = snapshotElement(value);
    const [type, data] = await this.serde.dumpsTyped(value);
    const element = { ref: contentRef(type, data), type, data };
    if (snapshot !== undefined && matchesSnapshot(value, snapshot)) {
      this.remember(thread, value, { element, snapshot });
    }
    return element;
  }
}

/** A message's id: what its encoding is remembered by within a thread. */
function messageId(value: object): string | undefined {
  const id: unknown = (value as { id?: unknown }).id;
  return typeof id === "string" ? id : undefined;
}

function weightOf(known: Known): number {
  return known.element.data.byteLength + known.snapshot.length * SNAPSHOT_ENTRY_BYTES;
}
