import sanitizeHtml from 'sanitize-html';

/**
 * sanitize-html for admin-authored pages: the portal serves custom pages as HTML in its own origin,
 * so scripts, event handlers, frames, forms and script URLs are removed; layout and links stay.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'figure',
    'figcaption',
    'picture',
    'source',
    'h1',
    'h2',
    'section',
    'article',
    'header',
    'footer',
  ],
  allowedAttributes: {
    '*': ['id', 'class', 'title', 'lang', 'dir', 'aria-label', 'aria-hidden', 'role'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'srcset', 'alt', 'width', 'height', 'loading'],
    source: ['srcset', 'type', 'media'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

export function sanitizePageHtml(html: string): string {
  return sanitizeHtml(html, options);
}

/** The URLs of a srcset: each candidate is a URL (no whitespace) and descriptors up to a comma. */
function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  let rest = srcset;
  for (;;) {
    rest = rest.replace(/^[\s,]+/, '');
    const url = /^\S+/.exec(rest)?.[0];
    if (!url) return urls;
    urls.push(url.replace(/,+$/, ''));
    rest = rest.slice(url.length);
    if (!url.endsWith(',')) rest = rest.replace(/^[^,]*/, '');
  }
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
