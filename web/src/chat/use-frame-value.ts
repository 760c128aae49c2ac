import { useEffect, useRef, useState } from "react";
import { FrameCoalescer } from "./frame-coalescer.js";

/**
 * `value`, but while `coalesce` is on it changes at most once per animation frame. Off (no
 * stream running), every change shows at once: a send, a stop or a loaded thread never waits.
 */
export function useFrameValue<T>(value: T, coalesce: boolean): T {
  const [shown, setShown] = useState(value);
  const coalescer = useRef<FrameCoalescer<T> | null>(null);
  useEffect(() => {
    const current = new FrameCoalescer<T>(
      setShown,
      (run) => requestAnimationFrame(run),
      (handle) => cancelAnimationFrame(handle),
    );
    coalescer.current = current;
    return () => current.dispose();
  }, []);
  useEffect(() => {
    if (coalesce) coalescer.current?.push(value);
    else setShown(value);
  }, [value, coalesce]);
  return coalesce ? shown : value;
}
