import { type RefObject, type UIEvent, useCallback, useRef, useState } from "react";

/** How close to the bottom (px) still counts as "at the latest message". */
const NEAR_BOTTOM = 80;

export interface FollowLatest {
  scrollRef: RefObject<HTMLDivElement | null>;
  /** True while the view is at the bottom: growth (tokens, new messages) keeps it there. */
  pinned: RefObject<boolean>;
  /** Rendered state of `pinned`, for the "Jump to latest" button. */
  atBottom: boolean;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
  /** Scrolls to the bottom if pinned; the list calls it after every change of its size. */
  keepPinned: () => void;
  jumpToLatest: () => void;
}

/**
 * Follows the conversation as it grows, unless the user scrolled up to read: then it stays put
 * until they scroll back down or press "Jump to latest".
 */
export function useFollowLatest(): FollowLatest {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const pinned = useRef(true);
  const [atBottom, setAtBottom] = useState(true);
  const onScroll = useCallback((event: UIEvent<HTMLDivElement>) => {
    const view = event.currentTarget;
    const near = view.scrollHeight - view.scrollTop - view.clientHeight < NEAR_BOTTOM;
    pinned.current = near;
    setAtBottom(near);
  }, []);
  const keepPinned = useCallback(() => {
    const view = scrollRef.current;
    if (view && pinned.current) view.scrollTop = view.scrollHeight;
  }, []);
  const jumpToLatest = useCallback(() => {
    pinned.current = true;
    setAtBottom(true);
    const view = scrollRef.current;
    if (view) view.scrollTop = view.scrollHeight;
  }, []);
  return { scrollRef, pinned, atBottom, onScroll, keepPinned, jumpToLatest };
}
