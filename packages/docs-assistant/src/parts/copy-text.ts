/**
 * Copies with the Clipboard API, else with the legacy `execCommand('copy')` (pages served over plain
 * http have no `navigator.clipboard`); false when neither works. Shared by the code block's and the
 * message's copy buttons.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied (insecure context, permissions policy, document not focused): try the legacy path below.
  }
  if (typeof document === 'undefined' || typeof document.execCommand !== 'function') return false;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  const previousFocus = document.activeElement;
  document.body.appendChild(area);
  try {
    area.focus();
    area.select();
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    // Give focus back to the copy button so keyboard readers stay where they were.
    if (previousFocus instanceof HTMLElement) previousFocus.focus();
  }
}
