import { htmlPolicy, isAllowedUrl, srcsetUrls } from '@vitrine/contract/html-policy';
import sanitizeHtml from 'sanitize-html';

/**
 * sanitize-html for admin-authored pages, configured from the contract's HTML policy (the browser's
 * sanitiser reads the same): the portal serves custom pages as HTML in its own origin, so scripts,
 * event handlers, styles, frames, forms and script URLs are removed; layout, pictures and links stay.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [...htmlPolicy.tags],
  allowedAttributes: Object.fromEntries(Object.entries(htmlPolicy.attributes).map(([tag, names]) => [tag, [...names]])),
  allowedSchemes: [...htmlPolicy.schemes],
  // sanitize-html applies these to an img's src; a srcset is checked with `allowedSchemes`, as the policy says.
  allowedSchemesByTag: { img: [...htmlPolicy.imageSchemes] },
  allowProtocolRelative: false,
  nonTextTags: [...htmlPolicy.droppedWithContent],
  // Elements without an end tag are written as such (<source>, not <source></source>).
  selfClosing: [...sanitizeHtml.defaults.selfClosing, 'source', 'wbr', 'col'],
  transformTags: {
    '*': (tagName, attribs) => {
      const kept = Object.fromEntries(
        Object.entries(attribs).filter(([name, value]) => isAllowedUrl(tagName, name, value)),
      );
      if (tagName === 'a' && kept.target === '_blank') kept.rel = htmlPolicy.blankTargetRel;
      return { tagName, attribs: kept };
    },
  },
};

export function sanitizePageHtml(html: string): string {
  return sanitizeHtml(html, options);
}

/** The addresses of every picture a page names (img src and srcset, picture sources). */
export function pageImageSources(html: string): string[] {
  const found: string[] = [];
  const collect = (tagName: string, attribs: sanitizeHtml.Attributes) => {
    if (attribs.src !== undefined) found.push(attribs.src);
    if (attribs.srcset !== undefined) found.push(...srcsetUrls(attribs.srcset));
    return { tagName, attribs };
  };
  sanitizeHtml(html, { ...options, transformTags: { img: collect, source: collect } });
  return found;
}
