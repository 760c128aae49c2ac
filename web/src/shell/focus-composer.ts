/**
 * Puts the caret in the page's message box (the chat's, or a team's task box), if the page has
 * one; true when it did. Found by its place in the page, so the composer needs no wiring.
 */
export function focusComposer(): boolean {
  const box =
    document.querySelector<HTMLTextAreaElement>(".chat .composer textarea") ??
    document.querySelector<HTMLTextAreaElement>("main .composer textarea, .composer textarea");
  if (!box || box.disabled) return false;
  box.focus();
  return true;
}
