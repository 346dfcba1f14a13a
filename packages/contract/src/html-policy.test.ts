import { describe, expect, it } from 'vitest';
import { allowedAttributes, htmlPolicy, isAllowedUrl, srcsetUrls } from './html-policy.ts';
import { htmlPolicyExamples } from './html-policy.examples.ts';

describe('the HTML policy of custom pages', () => {
  it('allows no element that runs script, frames, styles or embeds, nor handlers or style attributes', () => {
    for (const tag of [
      'script',
      'style',
      'iframe',
      'object',
      'embed',
      'svg',
      'math',
      'form',
      'input',
      'base',
      'meta',
    ]) {
      expect(htmlPolicy.tags, tag).not.toContain(tag);
    }
    for (const [tag, names] of Object.entries(htmlPolicy.attributes)) {
      expect(
        names.filter((n) => n === 'style' || n.startsWith('on') || n === 'srcdoc'),
        tag,
      ).toEqual([]);
    }
    expect(allowedAttributes('img')).toEqual(expect.arrayContaining(['class', 'src', 'alt']));
    expect(allowedAttributes('p')).not.toContain('src');
  });

  it('allows URLs relative to the page and of the policy’s schemes; data: only as a picture’s src', () => {
    for (const ok of ['/custom', 'page.html', '#top', '?q=1', 'https://example.org/', 'mailto:a@b.c', 'tel:+4930']) {
      expect(isAllowedUrl('a', 'href', ok), ok).toBe(true);
    }
    for (const bad of [
      'javascript:alert(1)',
      ' java\tscript:x',
      'JAVASCRIPT:x',
      'java<!-- -->script:x',
      'vbscript:x',
    ]) {
      expect(isAllowedUrl('a', 'href', bad), bad).toBe(false);
    }
    expect(isAllowedUrl('a', 'href', '//evil.example/')).toBe(false);
    expect(isAllowedUrl('a', 'href', '\\\\evil.example/')).toBe(false);
    expect(isAllowedUrl('a', 'href', 'data:text/html,x')).toBe(false);
    expect(isAllowedUrl('img', 'src', 'data:image/png;base64,AAAA')).toBe(true);
    expect(isAllowedUrl('img', 'srcset', 'data:image/png;base64,AAAA 1x')).toBe(false);
    expect(isAllowedUrl('img', 'srcset', '/a.png 1x, javascript:x 2x')).toBe(false);
    expect(isAllowedUrl('img', 'alt', 'javascript:x')).toBe(true);
  });

  it('reads the URLs of a srcset', () => {
    expect(srcsetUrls('a.png 1x, b.png 2x')).toEqual(['a.png', 'b.png']);
    expect(srcsetUrls('a.png 100w,b.png 200w')).toEqual(['a.png', 'b.png']);
    // A comma inside a URL belongs to it (as browsers read a srcset).
    expect(srcsetUrls('a.png,b.png 100w')).toEqual(['a.png,b.png']);
    expect(srcsetUrls('  ')).toEqual([]);
  });

  it('has examples for both sanitisers to be tested against, each named once', () => {
    const names = htmlPolicyExamples.map((e) => e.what);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(30);
  });
});
