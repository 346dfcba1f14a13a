import DOMPurify from 'dompurify';
import { allowedAttributes, htmlPolicy, isAllowedUrl } from '@vitrine/contract/html-policy';

/**
 * Admin-authored HTML as the portal may show it: DOMPurify configured from the contract's HTML
 * policy, the one the server's sanitiser reads, so the editor's live preview shows what the portal
 * will (custom pages are sanitised on the server and again here).
 */
const purify = DOMPurify(window);

const everyAttribute = [...new Set(Object.values(htmlPolicy.attributes).flat())];
const config = {
  ALLOWED_TAGS: [...htmlPolicy.tags],
  ALLOWED_ATTR: everyAttribute,
  // DOMPurify checks other attributes' values as URLs; the policy's URL check is in the hook below.
  ADD_URI_SAFE_ATTR: everyAttribute.filter((a) => !(htmlPolicy.urlAttributes as readonly string[]).includes(a)),
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  FORBID_CONTENTS: [...htmlPolicy.droppedWithContent],
  // Parsed as the inside of the page's element, as the server reads it: a leading <style> or
  // <noscript> is not moved into a document head of its own.
  FORCE_BODY: true,
};

// Attributes per element, and their URLs, as the policy allows them.
purify.addHook('uponSanitizeAttribute', (node, data) => {
  const tag = node.nodeName.toLowerCase();
  if (!allowedAttributes(tag).includes(data.attrName) || !isAllowedUrl(tag, data.attrName, data.attrValue)) {
    data.keepAttr = false;
  }
});
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A' && node.getAttribute('target') === '_blank') {
    node.setAttribute('rel', htmlPolicy.blankTargetRel);
  }
});

export function sanitizeHtml(html: string): string {
  return purify.sanitize(html, config);
}
