import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configKeyOf, configKeys, leafKeysOf } from './config-keys.ts';

describe('the keys of the global config, walked from its schema', () => {
  it('reaches the keys of list entries and records that the defaults hold none of', () => {
    for (const key of [
      'facets[].options.sort_orientation',
      'facets[].labels{}',
      'dashboard.collections.data[].search{}.facets[].range.from',
      'footer.entries[].links{}.column',
      'login.register.links{}',
      'themes.options[].advanced_appearance{}',
      'accessibility.assets.alt_fallback.options.text{}',
      'content_languages[]',
    ]) {
      expect(configKeys, key).toContain(key);
    }
    expect(configKeys).not.toContain('facets');
    expect(new Set(configKeys).size).toBe(configKeys.length);
  });

  it('looks through optional, default, prefault, nullable, pipe and lazy schemas', () => {
    const schema = z.object({
      a: z.object({ b: z.string() }).optional(),
      c: z.array(z.object({ d: z.number() })).default([]),
      e: z.object({ f: z.boolean() }).prefault({ f: true }),
      g: z.record(z.string(), z.object({ h: z.string() }).nullable()),
      i: z.string().pipe(z.string()),
      j: z.lazy(() => z.object({ k: z.string() })),
    });
    expect(leafKeysOf(schema)).toEqual(['a.b', 'c[].d', 'e.f', 'g{}.h', 'i', 'j.k']);
  });

  it('names the key of a place in a config', () => {
    expect(configKeyOf('facets.2.options.preview')).toBe('facets[].options.preview');
    expect(configKeyOf('terms_of_use.links.de')).toBe('terms_of_use.links{}');
    expect(configKeyOf('dashboard.collections.data.0.search.en.facets.1.values')).toBe(
      'dashboard.collections.data[].search{}.facets[].values',
    );
    expect(configKeyOf('global.website_title')).toBe('global.website_title');
    // A place the schema does not have.
    expect(configKeyOf('facets.first')).toBeUndefined();
    expect(configKeyOf('global.no_such_key')).toBeUndefined();
  });
});
