import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { type CopyTemplate, copyElement, copyTemplateOf } from "./element-clone.js";
import { type ElementSnapshot, matchesSnapshot, snapshotElement } from "./element-snapshot.js";
import { contentRef, type EncodedElement } from "./list-values.js";
import { WeightedLru } from "./weighted-lru.js";

export interface ElementCodecOptions {
  /** Serialized bytes of the elements kept decoded, to be copied on read (default 16 MiB). */
  cachedDecodedBytes?: number;
}

/** A list channel's value, encoded: how many elements had to be serialized and hashed. */
export interface ListEncoding {
  elements: EncodedElement[];
  serialized: number;
  reused: number;
}

interface Known {
  element: EncodedElement;
  snapshot: ElementSnapshot;
}

/** A decoded element to copy on read, or a mark that it must be decoded every time. */
type Template = { copyable: true; copy: CopyTemplate } | { copyable: false };

/** Decoded objects cost several times their serialized bytes in memory. */
const DECODED_WEIGHT_FACTOR = 4;

/**
 * Serializes list elements (messages) and decodes them, once each. A put hands over the whole
 * list each time, mostly the same objects as last time: each object this codec serialized or
 * handed out is remembered with its ref, bytes and a snapshot, so the next put reuses them after
 * one cheap comparison instead of serializing and hashing the message again — a put costs
 * serialization for its new messages only. Reads decode each stored element once into a private
 * template and hand out copies, remembered the same way, so the run that reads a thread and then
 * puts checkpoints of it serializes none of the messages it read.
 */
export class ElementCodec {
  /** Keyed by the object a caller holds: an entry lives as long as the caller keeps it. */
  private readonly known = new WeakMap<object, Known>();
  /** Keyed by content ref, so immutable; shared by every thread of the saver. */
  private readonly templates: WeightedLru<string, Template & { weight: number }>;

  constructor(
    private readonly serde: SerializerProtocol,
    options: ElementCodecOptions = {},
  ) {
    this.templates = new WeightedLru(
      options.cachedDecodedBytes ?? 16 * 1024 * 1024,
      (template) => template.weight,
    );
  }

  async encode(values: readonly unknown[]): Promise<ListEncoding> {
    const elements = new Array<EncodedElement>(values.length);
    const serializing: Promise<void>[] = [];
    values.forEach((value, index) => {
      const carried = this.carried(value);
      if (carried !== undefined) {
        elements[index] = carried;
        return;
      }
      serializing.push(
        this.serialize(value).then((element) => {
          elements[index] = element;
        }),
      );
    });
    await Promise.all(serializing);
    return {
      elements,
      serialized: serializing.length,
      reused: values.length - serializing.length,
    };
  }

  /** Fresh objects equal to what `elements` decode to; cached ones are copied synchronously. */
  async decodeList(elements: readonly EncodedElement[]): Promise<unknown[]> {
    const values = new Array<unknown>(elements.length);
    const decoding: Promise<void>[] = [];
    elements.forEach((element, index) => {
      const template = this.templates.get(element.ref);
      if (template?.copyable === true) {
        values[index] = this.copy(element, template.copy);
        return;
      }
      decoding.push(
        this.decodeUncached(element, template).then((value) => {
          values[index] = value;
        }),
      );
    });
    await Promise.all(decoding);
    return values;
  }

  private async decodeUncached(
    element: EncodedElement,
    known: Template | undefined,
  ): Promise<unknown> {
    const decoded: unknown = await this.serde.loadsTyped(element.type, element.data);
    if (known !== undefined) return decoded;
    // Only what a snapshot can vouch for is copied (the same walk checks the copies on put).
    const copy = snapshotElement(decoded) === undefined ? undefined : copyTemplateOf(decoded);
    const weight = element.data.byteLength * DECODED_WEIGHT_FACTOR + 64;
    if (copy === undefined) {
      this.templates.set(element.ref, { copyable: false, weight });
      return decoded;
    }
    // The decoded object stays private as the template; the caller gets a copy.
    this.templates.set(element.ref, { copyable: true, copy, weight });
    return this.copy(element, copy);
  }

  /** A copy of the template, remembered so the next put reuses `element` for it. */
  private copy(element: EncodedElement, template: CopyTemplate): unknown {
    const value = copyElement(template);
    const snapshot = snapshotElement(value);
    if (snapshot !== undefined && typeof value === "object" && value !== null) {
      this.known.set(value, { element, snapshot });
    }
    return value;
  }

  /** The encoding of `value` from the last time, if it is provably unchanged since. */
  private carried(value: unknown): EncodedElement | undefined {
    if (typeof value !== "object" || value === null) return undefined;
    const known = this.known.get(value);
    if (known === undefined || !matchesSnapshot(value, known.snapshot)) return undefined;
    return known.element;
  }

  private async serialize(value: unknown): Promise<EncodedElement> {
    // Snapshot before serializing and check it after: if the value changed in between, the
    // bytes may describe either state, so they are not remembered.
    const snapshot = snapshotElement(value);
    const [type, data] = await this.serde.dumpsTyped(value);
    const element = { ref: contentRef(type, data), type, data };
    if (
      snapshot !== undefined &&
      typeof value === "object" &&
      value !== null &&
      matchesSnapshot(value, snapshot)
    ) {
      this.known.set(value, { element, snapshot });
    }
    return element;
  }
}
