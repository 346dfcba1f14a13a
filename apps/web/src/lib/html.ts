import DOMPurify from 'dompurify';

/**
 * Admin-authored HTML as the portal may show it: DOMPurify removes scripts, event handlers and
 * script URLs. The server sanitises custom pages too; this also covers the editor's live preview.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form', 'iframe'], FORBID_ATTR: ['style'] });
}
