import { useEffect, useState } from "react";

/**
 * Below this width the sidebar is a drawer and the artifacts panel stacks under the chat
 * (styles.css has the same number).
 */
export const NARROW_QUERY = "(max-width: 800px)";

/** Whether the page is narrow now; follows the window as it is resized. */
export function useNarrowScreen(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW_QUERY).matches);
  useEffect(() => {
    const media = window.matchMedia(NARROW_QUERY);
    const onChange = (): void => setNarrow(media.matches);
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, []);
  return narrow;
}
