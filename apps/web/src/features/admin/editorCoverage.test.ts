import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { themeColourKeys } from '@vitrine/contract/global-config';

/**
 * Keys of the config model that no admin editor sets, each with the reason (admin-spec §3): they are
 * set in the stored config file (`vitrine config` or a rollback) or by the admin area itself.
 */
const FILE_ONLY: Record<string, string> = {
  version: 'written by the admin area on every save (admin-spec §4 "Config versioning and upgrade")',
  'dashboard.heroImage.trans_header': "the text key of the hero's heading; its texts are edited under Languages",
  'dashboard.heroImage.trans_body': "the text key of the hero's text; its texts are edited under Languages",
  'search.views.options.*.icon': 'the icon that belongs to the view; offered, order and default are edited',
  'sorting.options.*.key': 'a field the engine sorts by (the index decides which); offered or not is edited',
  'sorting.options.*.translation': "the text key of the sort's name; its texts are edited under Languages",
  'sorting.orientation.options': 'not read: the sort menu offers both orientations (portal-spec §4)',
  'visibleLogos.*.key': 'which logo it is; shown or not is edited',
  'visibleLogos.*.translation': "the text key of the logo's name; its texts are edited under Languages",
  'guide.tour.*.key': "a step of the tour belongs to the portal's screens; the tour is switched by guide.show",
  'guide.tour.*.translation': 'the text key of a tour step; its texts are edited under Languages',
};

/** Keys an editor writes from a list rather than by name (the theme colour modal's colours). */
const KEY_LISTS: Record<string, readonly string[]> = { themeColourKeys };

/** The config's leaf keys as dot paths; an array of objects is one `*` entry with its element's keys. */
function leafKeys(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) {
    const [first] = value as unknown[];
    return first !== null && typeof first === 'object' && !Array.isArray(first)
      ? leafKeys(first, `${prefix}.*`)
      : [prefix];
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, v]) => leafKeys(v, prefix ? `${prefix}.${key}` : key));
  }
  return [prefix];
}

const adminFolder = path.dirname(new URL(import.meta.url).pathname);

function sources(folder: string): { file: string; text: string }[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [{ file, text: readFileSync(file, 'utf8') }]
      : [];
  });
}

/**
 * The paths the admin editors write, as patterns: `set('a.b')`, set(`a.${i}.b`) and
 * setAt(draft, 'a.b') in the admin sources, each `${…}` one path segment (`*`).
 */
function writtenPaths(): { pattern: RegExp; text: string; source: string }[] {
  const call = /\b(?:set|setAt\([^,()]+,)\s*\(?\s*(['`])([A-Za-z_$][^'`]*)\1/g;
  return sources(adminFolder).flatMap(({ file, text }) =>
    [...text.matchAll(call)].map((m) => {
      const written = (m[2] ?? '').replace(/\$\{[^}]+\}/g, '*');
      const pattern = written
        .split('.')
        .map((segment) => segment.replace(/[^\w*]/g, '\\$&').replace(/\*/g, '[^.]*'))
        .join('\\.');
      return { pattern: new RegExp(`^${pattern}(\\..+)?$`), text, source: path.relative(adminFolder, file) };
    }),
  );
}

describe('every config key the portal reads has an admin editor (admin-spec §3)', () => {
  const leaves = leafKeys(defaultGlobalConfig);
  const written = writtenPaths();

  /**
   * A key is edited where a path written equals it, or where a whole value above it is written by
   * an editor whose source names the key's last part (an editor of whole entries edits their fields).
   */
  const editedBy = (leaf: string) =>
    written.find(({ pattern, text }) => {
      const match = pattern.exec(leaf.replace(/\.\*/g, '.0'));
      if (!match) return false;
      if (!match[1]) return true;
      const last = leaf.split('.').at(-1) ?? '';
      if (last === '*' || new RegExp(`\\b${last}\\b`).test(text)) return true;
      return Object.entries(KEY_LISTS).some(([list, keys]) => keys.includes(last) && text.includes(list));
    });

  it('reads the leaf keys of the defaults', () => {
    expect(leaves).toContain('global.website_title');
    expect(leaves).toContain('themes.options.*.appearance.primary');
    expect(leaves.length).toBeGreaterThan(90);
  });

  it('finds an editor for every key not listed as file-only', () => {
    const missing = leaves.filter((leaf) => !(leaf in FILE_ONLY) && !editedBy(leaf));
    expect(missing).toEqual([]);
  });

  it('lists as file-only only keys that exist and that no editor sets', () => {
    for (const key of Object.keys(FILE_ONLY)) {
      expect(leaves, key).toContain(key);
      expect(editedBy(key), key).toBeUndefined();
    }
  });

  it('tells an edited key from one nobody edits', () => {
    expect(editedBy('dashboard.heroImage.logo.height')?.source).toBe(path.join('sections', 'DashboardSection.tsx'));
    expect(editedBy('facets.*.options.preview')).toBeDefined();
    // The default config has no facets: the keys of one are named here.
    for (const key of ['facets.*.options.sort_orientation', 'facets.*.options.filterVal', 'facets.*.labels.*']) {
      expect(editedBy(key)?.source, key).toBe(path.join('sections', 'SearchSection.tsx'));
    }
    expect(editedBy('no.such.key')).toBeUndefined();
  });
});
