import { describe, expect, it } from 'vitest';
import type { AssetDoc, IndexField } from '@vitrine/contract/search';
import { builtInFields } from '@vitrine/contract/fields';
import { createI18n } from './i18n.ts';
import { assetTitle, fieldRefLabel, fieldText, type FieldTextContext } from './fieldText.ts';

/** The index fields every catalogue has, as `index/fields` answers them. */
const fields: IndexField[] = builtInFields;

const doc: AssetDoc = {
  id: '7',
  title: 'Harbour at dawn',
  keywords: ['harbour', 'boat', 'dawn'],
  category: 'photo',
  category_label: 'Photography',
  created: Date.UTC(2024, 2, 5),
  file_size: 2_345_678,
  duration: 12.5,
  pixel_x: 4000,
  pixel_y: 3000,
  bbox_x: 210,
  bbox_y: 297.25,
};

async function context(lang: 'en' | 'de', more: Partial<FieldTextContext> = {}): Promise<FieldTextContext> {
  localStorage.setItem('locale', lang);
  const i18n = await createI18n();
  return {
    t: i18n.t,
    exists: (key) => i18n.exists(key),
    textIn: i18n.textIn,
    lang,
    fallbackLang: 'en',
    fields,
    ...more,
  };
}

describe('the field formatter (portal-spec §3 "Asset", "Field configuration")', () => {
  it.each([
    {
      lang: 'en' as const,
      created: '3/5/24',
      size: '2.35 MB',
      duration: '12.5',
      pixels: '4000 × 3000 px',
      mm: '210.0 × 297.3 mm',
    },
    {
      lang: 'de' as const,
      created: '05.03.24',
      size: '2,35 MB',
      duration: '12,5',
      pixels: '4000 × 3000 px',
      mm: '210,0 × 297,3 mm',
    },
  ])('in $lang: lists, dates, numbers, file sizes and the two built-ins', async (want) => {
    const ctx = await context(want.lang);
    expect(fieldText(doc, 'keywords', ctx)).toBe('harbour, boat, dawn');
    expect(fieldText(doc, 'created', ctx)).toBe(want.created);
    expect(fieldText(doc, 'file_size', ctx)).toBe(want.size);
    expect(fieldText(doc, 'duration', ctx)).toBe(want.duration);
    expect(fieldText(doc, 'pixel_x', ctx)).toBe(want.pixels);
    expect(fieldText(doc, 'bbox_x', ctx)).toBe(want.mm);
    expect(fieldText(doc, 'missing', ctx)).toBe('');
  });

  it('uses the label variant {name}_label when the asset has one, as it is', async () => {
    const ctx = await context('en');
    expect(fieldText(doc, 'category', ctx)).toBe('Photography');
    // A label is shown as written, even where the field's own values are dates.
    expect(fieldText({ ...doc, created_label: '2024' }, 'created', ctx)).toBe('2024');
    expect(fieldText({ ...doc, category_label: '' }, 'category', ctx)).toBe('photo');
  });

  it('shows a built-in as its field when one of its two values is missing', async () => {
    const ctx = await context('en');
    expect(fieldText({ ...doc, pixel_y: undefined }, 'pixel_x', ctx)).toBe('4000');
  });

  it('writes file sizes in base 1024 when asked', async () => {
    const ctx = await context('en', { fileSizeBase: 1024 });
    expect(fieldText(doc, 'file_size', ctx)).toBe('2.24 MiB');
  });

  it.each([
    { lang: 'en' as const, keywords: 'Keywords', width: 'Width', configured: 'Title' },
    { lang: 'de' as const, keywords: 'Schlagwörter', width: 'Breite', configured: 'Titel' },
  ])('labels in $lang: a configured text key, else the index label, without the built-ins’ unit', async (want) => {
    const ctx = await context(want.lang);
    expect(fieldRefLabel({ field_name: 'keywords' }, ctx)).toBe(want.keywords);
    expect(fieldRefLabel({ field_name: 'pixel_x' }, ctx)).toBe(want.width);
    expect(fieldRefLabel({ field_name: 'duration' }, ctx)).toBe(want.lang === 'en' ? 'Duration (s)' : 'Dauer (s)');
    expect(fieldRefLabel({ field_name: 'x', translation: 'views.search.sort.label' }, ctx)).toBe(
      want.lang === 'en' ? 'Sort by' : 'Sortieren nach',
    );
    // A text key without a text falls back to the index label, a field outside the index to its name.
    expect(fieldRefLabel({ field_name: 'title', translation: 'metadata.nothing_here' }, ctx)).toBe(want.configured);
    expect(fieldRefLabel({ field_name: 'unknown_field' }, ctx)).toBe('unknown_field');
  });

  it('labels in a language an admin added: its translation set names them (metadata.<field>), else the fallback language speaks (admin-spec "Translation set")', async () => {
    localStorage.setItem('locale', 'en');
    const i18n = await createI18n();
    i18n.addMessages('fr', { metadata: { keywords: 'Mots-clés', duration: 'Durée (s)', pixel_x: 'Largeur (px)' } });
    const ctx: FieldTextContext = {
      t: i18n.t,
      exists: (key) => i18n.exists(key),
      textIn: i18n.textIn,
      lang: 'fr',
      fallbackLang: 'en',
      fields,
    };
    expect(fieldRefLabel({ field_name: 'keywords' }, ctx)).toBe('Mots-clés');
    expect(fieldRefLabel({ field_name: 'duration' }, ctx)).toBe('Durée (s)');
    expect(fieldRefLabel({ field_name: 'pixel_x' }, ctx)).toBe('Largeur');
    // Not named by the set: the fallback language's set, else its index label.
    expect(fieldRefLabel({ field_name: 'filename' }, ctx)).toBe('File name');
    expect(fieldRefLabel({ field_name: 'category' }, ctx)).toBe('Category');
    // A set's label wins over the index field's in its own language, and only there.
    i18n.addMessages('de', { metadata: { keywords: 'Stichwörter' } });
    expect(fieldRefLabel({ field_name: 'keywords' }, { ...ctx, lang: 'de' })).toBe('Stichwörter');
    expect(fieldRefLabel({ field_name: 'keywords' }, { ...ctx, lang: 'en' })).toBe('Keywords');
  });

  it('titles an asset by its title field, else its file name, else its id', async () => {
    const ctx = await context('de');
    expect(assetTitle(doc, 'title', ctx)).toBe('Harbour at dawn');
    expect(assetTitle(doc, 'category', ctx)).toBe('Photography');
    expect(assetTitle({ id: '8', filename: 'boat.jpg' }, 'title', ctx)).toBe('boat.jpg');
    expect(assetTitle({ id: '9' }, 'title', ctx)).toBe('Asset 9');
  });
});
