/** Text made safe to place in HTML or XML, as an element's text or an attribute's quoted value. */
export function escapeMarkup(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}
