/**
 * What admin-written HTML (custom pages) may hold, as data: the server's sanitiser (sanitize-html,
 * `apps/server/src/adapters/html.ts`) and the browser's (DOMPurify, `apps/web/src/lib/html.ts`, for
 * the page and the editor's live preview) are both configured from it, so a page looks the same in
 * the preview as on the portal. Everything not named is removed: scripts, event handlers, styles,
 * frames, forms, SVG and MathML, and URLs of other schemes (`javascript:`, `vbscript:`, `data:`
 * outside a picture). No module here imports anything, so the browser may load it.
 */
export const htmlPolicy = {
  /** Elements kept; any other is removed and its content kept (but see `droppedWithContent`). */
  tags: [
    'address',
    'article',
    'aside',
    'footer',
    'header',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'hgroup',
    'main',
    'nav',
    'section',
    'blockquote',
    'dd',
    'div',
    'dl',
    'dt',
    'figcaption',
    'figure',
    'hr',
    'li',
    'menu',
    'ol',
    'p',
    'pre',
    'ul',
    'a',
    'abbr',
    'b',
    'bdi',
    'bdo',
    'br',
    'cite',
    'code',
    'data',
    'dfn',
    'em',
    'i',
    'kbd',
    'mark',
    'q',
    'rb',
    'rp',
    'rt',
    'rtc',
    'ruby',
    's',
    'samp',
    'small',
    'span',
    'strong',
    'sub',
    'sup',
    'time',
    'u',
    'var',
    'wbr',
    'caption',
    'col',
    'colgroup',
    'table',
    'tbody',
    'td',
    'tfoot',
    'th',
    'thead',
    'tr',
    'img',
    'picture',
    'source',
  ],
  /** Attributes kept, on every element (`*`) and per element; no `style`, no `on…` handler. */
  attributes: {
    '*': ['id', 'class', 'title', 'lang', 'dir', 'aria-label', 'aria-hidden', 'role'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'srcset', 'alt', 'width', 'height', 'loading'],
    source: ['srcset', 'type', 'media'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
  } as Readonly<Record<string, readonly string[]>>,
  /** Attributes that hold URLs (`srcset` a list of them): each must be relative or of `schemes`. */
  urlAttributes: ['href', 'src', 'srcset'],
  schemes: ['http', 'https', 'mailto', 'tel'],
  /** A picture's own `src` may also be a `data:` URL (a picture pasted into the page). */
  imageSchemes: ['http', 'https', 'data'],
  /** Elements removed together with everything inside them, text included. */
  droppedWithContent: [
    'script',
    'style',
    'template',
    'noscript',
    'noembed',
    'noframes',
    'xmp',
    'textarea',
    'select',
    'option',
    'title',
    'iframe',
    'object',
    'svg',
    'math',
    'audio',
    'video',
  ],
  /** A link that opens a new window gets this `rel`, so the page opened cannot reach the portal's. */
  blankTargetRel: 'noopener noreferrer',
} as const;

/** The attributes `tag` may keep. */
export const allowedAttributes = (tag: string): readonly string[] => [
  ...(htmlPolicy.attributes['*'] ?? []),
  ...(htmlPolicy.attributes[tag] ?? []),
];

/** The URLs of a srcset: each candidate is a URL (no whitespace) and descriptors up to a comma. */
export function srcsetUrls(srcset: string): string[] {
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

/**
 * The scheme of a URL as a browser reads it, lower-cased: browsers skip control characters and
 * spaces (`java\tscript:` is `javascript:`), and comments are dropped. `//` for a URL relative to
 * the protocol (another host), '' for a path, query or fragment.
 */
function schemeOf(url: string): string {
  // eslint-disable-next-line no-control-regex
  const v = url.replace(/[\u0000-\u0020]+/g, '').replace(/<!--[\s\S]*?-->/g, '');
  const scheme = /^([a-z][a-z0-9.+-]*):/i.exec(v)?.[1];
  if (scheme) return scheme.toLowerCase();
  return /^[/\\]{2}/.test(v) ? '//' : '';
}

/**
 * Whether the value of `attribute` on `tag` may stay: true for an attribute that holds no URL; for
 * one that does, every URL must be relative to the page or of the policy's schemes.
 */
export function isAllowedUrl(tag: string, attribute: string, value: string): boolean {
  if (!(htmlPolicy.urlAttributes as readonly string[]).includes(attribute)) return true;
  const schemes: readonly string[] =
    tag === 'img' && attribute === 'src' ? htmlPolicy.imageSchemes : htmlPolicy.schemes;
  const urls = attribute === 'srcset' ? srcsetUrls(value) : [value];
  return urls.every((url) => {
    const scheme = schemeOf(url);
    return scheme === '' || schemes.includes(scheme);
  });
}
