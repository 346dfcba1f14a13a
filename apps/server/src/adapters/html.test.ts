import { describe, expect, it } from 'vitest';
import { htmlPolicyExamples } from '@vitrine/contract/html-policy.examples';
import { pageImageSources, sanitizePageHtml } from './html.ts';

describe('custom page HTML on the server (the contract’s HTML policy, as the browser applies it)', () => {
  it.each(htmlPolicyExamples.map((e) => [e.what, e] as const))('%s', (_what, example) => {
    // sanitize-html closes empty elements as <img … />; a browser writes <img …>.
    expect(sanitizePageHtml(example.input).replace(/ \/>/g, '>')).toBe(example.output);
  });

  it('finds every picture a page names, for the image origins check', () => {
    expect(
      pageImageSources(
        '<img src="/a.png" srcset="https://x.example/a.png 1x, /b.png 2x"><picture><source srcset="c.webp"></picture>',
      ),
    ).toEqual(['/a.png', 'https://x.example/a.png', '/b.png', 'c.webp']);
  });
});
