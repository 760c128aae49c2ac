import {
  type ComponentProps,
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useState,
} from "react";

/** Whether each disclosure of the conversation is open, by a key naming its message and part. */
type OpenDisclosures = Map<string, boolean>;

const DisclosureMemory = createContext<OpenDisclosures | null>(null);

/**
 * Keeps what the user opened (tool calls, thinking, sub-agent cards) while their rows leave the
 * virtual list: a row scrolled out of view is unmounted, and drawn again closed without this.
 * One memory per mounted conversation.
 */
export function DisclosureMemoryProvider({ children }: { children: ReactNode }): ReactNode {
  const [memory] = useState<OpenDisclosures>(() => new Map());
  return <DisclosureMemory.Provider value={memory}>{children}</DisclosureMemory.Provider>;
}

type Props = Omit<ComponentProps<"details">, "open" | "onToggle"> & {
  /** Names this disclosure in its conversation: unique, and the same each time it is drawn. */
  memoryKey: string;
};

/** A `<details>` that opens as the user last left it, even after its row was unmounted. */
export function RememberedDetails({ memoryKey, ...props }: Props): ReactNode {
  const memory = useContext(DisclosureMemory);
  const [open, setOpen] = useState(() => memory?.get(memoryKey) ?? false);
  const onToggle = useCallback(
    (event: { currentTarget: HTMLDetailsElement }) => {
      const next = event.currentTarget.open;
      memory?.set(memoryKey, next);
      setOpen(next);
    },
    [memory, memoryKey],
  );
  return <details {...props} open={open} onToggle={onToggle} />;
}
