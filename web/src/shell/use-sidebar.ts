import { useCallback, useEffect, useState } from "react";
import { NARROW_QUERY, useNarrowScreen } from "./use-narrow-screen.js";

const COLLAPSED_KEY = "fawn.sidebar.collapsed";

export interface SidebarState {
  /** The page is narrow: the sidebar is a drawer. */
  narrow: boolean;
  /** Narrow: the drawer is open. */
  drawerOpen: boolean;
  /** Wide: the user has hidden the sidebar (remembered). */
  collapsed: boolean;
  /** ⌘/Ctrl+B and the sidebar buttons: the drawer when narrow, the column when wide. */
  toggle: () => void;
  closeDrawer: () => void;
}

function savedCollapsed(): boolean {
  try {
    return window.localStorage.getItem(COLLAPSED_KEY) === "true";
  } catch {
    return false;
  }
}

export function useSidebar(): SidebarState {
  const narrow = useNarrowScreen();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(savedCollapsed);

  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === "Escape") setDrawerOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [drawerOpen]);

  const toggle = useCallback(() => {
    if (window.matchMedia(NARROW_QUERY).matches) {
      setDrawerOpen((open) => !open);
      return;
    }
    setCollapsed((was) => {
      try {
        window.localStorage.setItem(COLLAPSED_KEY, String(!was));
      } catch {
        // Not saved: the choice lasts for this page only.
      }
      return !was;
    });
  }, []);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  return { narrow, drawerOpen, collapsed, toggle, closeDrawer };
}
