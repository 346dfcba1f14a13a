/**
 * What the HTML policy (html-policy.ts) makes of dangerous and of ordinary admin-written HTML: the
 * server's sanitiser and the browser's are each tested against these, so both give the same page.
 * `output` is written as a browser serialises it (`<img …>`, not `<img … />`).
 */
export const htmlPolicyExamples: readonly { what: string; input: string; output: string }[] = [
  {
    what: 'a script element, with its text',
    input: '<p>a</p><script>alert(1)</script><p>b</p>',
    output: '<p>a</p><p>b</p>',
  },
  {
    what: 'an outside script inside kept markup',
    input: '<div><script src="https://evil.example/x.js"></script>ok</div>',
    output: '<div>ok</div>',
  },
  { what: 'an on… handler', input: '<p onclick="alert(1)" class="x">a</p>', output: '<p class="x">a</p>' },
  {
    what: 'an onerror handler on a picture',
    input: '<img src="/a.png" onerror="alert(1)" alt="a">',
    output: '<img src="/a.png" alt="a">',
  },
  { what: 'a javascript: link', input: '<a href="javascript:alert(1)">a</a>', output: '<a>a</a>' },
  {
    what: 'a javascript: link hidden by spaces, a tab and mixed case',
    input: '<a href="  JaVa\tScRiPt:alert(1)">a</a>',
    output: '<a>a</a>',
  },
  {
    what: 'a javascript: link written with a character reference',
    input: '<a href="&#106;avascript:alert(1)">a</a>',
    output: '<a>a</a>',
  },
  { what: 'a vbscript: link', input: '<a href="vbscript:msgbox(1)">a</a>', output: '<a>a</a>' },
  { what: 'a data: link', input: '<a href="data:text/html,<script>alert(1)</script>">a</a>', output: '<a>a</a>' },
  {
    what: 'a link relative to the protocol (another host)',
    input: '<a href="//evil.example/">a</a>',
    output: '<a>a</a>',
  },
  {
    what: 'a style attribute with url()',
    input: '<div style="background:url(javascript:alert(1))">a</div>',
    output: '<div>a</div>',
  },
  {
    what: 'a style element with url()',
    input: '<style>body{background:url(https://evil.example/)}</style><p>a</p>',
    output: '<p>a</p>',
  },
  { what: 'an iframe', input: '<iframe src="https://evil.example/"></iframe><p>a</p>', output: '<p>a</p>' },
  {
    what: 'an iframe with srcdoc, and its fallback text',
    input: '<iframe srcdoc="<script>alert(1)</script>">x</iframe>',
    output: '',
  },
  { what: 'SVG with onload', input: '<svg onload="alert(1)"><circle r="1"/></svg><p>a</p>', output: '<p>a</p>' },
  {
    what: 'SVG foreignObject holding HTML',
    input: '<svg><foreignObject><p>x</p><img src=x onerror=alert(1)></foreignObject></svg>',
    output: '',
  },
  { what: 'MathML holding HTML', input: '<math><mtext><img src=x onerror=alert(1)></mtext></math>', output: '' },
  {
    what: 'object and embed, with fallback text',
    input: '<object data="x.swf">fallback</object><embed src="x.swf">',
    output: '',
  },
  {
    what: 'a form: its fields go, the text of its button stays',
    input: '<form action="https://evil.example/"><input name="p"><button>Go</button></form>',
    output: 'Go',
  },
  {
    what: 'meta refresh and base',
    input: '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="https://evil.example/"><p>a</p>',
    output: '<p>a</p>',
  },
  {
    what: 'noscript whose attribute closes it (mutation XSS)',
    input: '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
    output: '',
  },
  { what: 'a template', input: '<template><img src=x onerror=alert(1)></template><p>a</p>', output: '<p>a</p>' },
  { what: 'a textarea holding markup', input: '<textarea><img src=x onerror=alert(1)></textarea>', output: '' },
  {
    what: 'a picture as a data: URL',
    input: '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">',
    output: '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">',
  },
  {
    what: 'a srcset naming a javascript: URL',
    input: '<img src="/a.png" srcset="/a.png 1x, javascript:alert(1) 2x" alt="a">',
    output: '<img src="/a.png" alt="a">',
  },
  {
    what: 'picture with its sources',
    input: '<picture><source srcset="/a.webp" type="image/webp"><img src="/a.png" alt="a"></picture>',
    output: '<picture><source srcset="/a.webp" type="image/webp"><img src="/a.png" alt="a"></picture>',
  },
  {
    what: 'a picture source as a data: URL',
    input: '<picture><source srcset="data:image/webp;base64,AAAA"><img src="/a.png" alt=""></picture>',
    output: '<picture><source><img src="/a.png" alt=""></picture>',
  },
  {
    what: 'a link to a new window gets rel noopener noreferrer',
    input: '<a href="https://example.org/" target="_blank" rel="opener">x</a>',
    output: '<a href="https://example.org/" target="_blank" rel="noopener noreferrer">x</a>',
  },
  {
    what: 'mailto: and tel: links',
    input: '<a href="mailto:info@example.org">m</a> <a href="tel:+49301234">t</a>',
    output: '<a href="mailto:info@example.org">m</a> <a href="tel:+49301234">t</a>',
  },
  {
    what: 'data-* and unlisted aria-* attributes',
    input: '<div data-x="1" aria-label="l" aria-describedby="d" role="note">a</div>',
    output: '<div aria-label="l" role="note">a</div>',
  },
  {
    what: 'a table with its spans and scope',
    input:
      '<table><thead><tr><th scope="col" colspan="2">h</th></tr></thead><tbody><tr><td rowspan="1">c</td></tr></tbody></table>',
    output:
      '<table><thead><tr><th scope="col" colspan="2">h</th></tr></thead><tbody><tr><td rowspan="1">c</td></tr></tbody></table>',
  },
  {
    what: 'sections, headings, figures and pictures from an https address',
    input:
      '<section id="s"><h1 class="t">T</h1><figure><img src="https://img.example.org/a.jpg" width="10" height="10" loading="lazy" alt="a"><figcaption>c</figcaption></figure></section>',
    output:
      '<section id="s"><h1 class="t">T</h1><figure><img src="https://img.example.org/a.jpg" width="10" height="10" loading="lazy" alt="a"><figcaption>c</figcaption></figure></section>',
  },
  { what: 'unknown elements keep their text', input: '<blink>hi</blink><marquee>there</marquee>', output: 'hithere' },
  { what: 'a comment', input: '<p>a<!-- <img src=x onerror=alert(1)> --></p>', output: '<p>a</p>' },
];
