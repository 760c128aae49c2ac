/**
 * Puts the caret in the page's message box (the chat's, or a team's task box), if the page has
 * one; true when it did. Found by its place in the page, so the composer needs no wiring.
 */
export function focusComposer(): boolean {
  const box = messageBox();
  if (!box || box.disabled) return false;
  box.focus();
  return true;
}

function messageBox(): HTMLTextAreaElement | null {
  return (
    document.querySelector<HTMLTextAreaElement>(".chat .composer textarea") ??
    document.querySelector<HTMLTextAreaElement>("main .composer textarea, .composer textarea")
  );
}

/**
 * Runs `navigate`, then focuses the message box of the page it leads to. That box mounts a few
 * frames later (a lazy chunk, a remount) and the old page's box may still be there meanwhile, so
 * this waits, frame by frame for about a second, for a box other than the one shown before.
 */
export function navigateAndFocusComposer(navigate: () => void): void {
  const before = messageBox();
  navigate();
  const attempt = (framesLeft: number): void => {
    const box = messageBox();
    if (box && box !== before && !box.disabled) {
      box.focus();
      return;
    }
    if (framesLeft > 0) requestAnimationFrame(() => attempt(framesLeft - 1));
  };
  requestAnimationFrame(() => attempt(60));
}
