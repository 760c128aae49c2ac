/** What the browser says about where keys go: the platform's modifier and text fields. */
export function isMacPlatform(): boolean {
  return /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent);
}

/** True when typing in `target` would produce text (where single-key shortcuts stay off). */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement)
    return !["checkbox", "radio", "button", "submit", "reset", "file", "range", "color"].includes(
      target.type,
    );
  return false;
}
