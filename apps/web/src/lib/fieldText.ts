import { formatFieldValue, valueFormatOf } from '@vitrine/contract/field-format';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import type { AssetDoc, IndexField } from '@vitrine/contract/search';
import type { TFunction } from './translator.ts';

/** A field as the config names it for a column or a metadata row (field_name, optional text key). */
export type FieldRef = GlobalConfig['infoView']['paramsLeft'][number];

/** What formatting a field needs to know: the visitor's texts and language, and the index fields. */
export interface FieldTextContext {
  t: TFunction;
  /** Whether a text key has a text (an admin may name one that does not). */
  exists: (key: string) => boolean;
  /** A text key's text in one language of the translation sets, without the fallback. */
  textIn: (lang: string, key: string) => string | undefined;
  /** The visitor's language: labels, dates and numbers. */
  lang: string;
  fallbackLang: string;
  fields: readonly IndexField[];
  /** config global.file_size_base */
  fileSizeBase?: 1000 | 1024;
}

/** The two built-in display fields (portal-spec §3 "Asset"): width × height in pixels and in millimetres. */
const builtIns = new Set(['pixel_x', 'bbox_x']);

/**
 * A field of an asset as text (portal-spec §3 "Asset"): the two built-ins as `x × y px` and
 * `x × y mm` with one decimal; else the field's label variant `{name}_label` as it is, when the asset
 * has one; else its value by the field's formatter (dates, numbers and file sizes in the visitor's
 * language, lists joined with commas). '' when there is nothing to show.
 */
export function fieldText(doc: AssetDoc, name: string, ctx: FieldTextContext): string {
  const { t, lang } = ctx;
  if (name === 'pixel_x' && doc.pixel_x && doc.pixel_y) {
    const px = (n: number) => formatFieldValue(n, 'none', lang);
    return t('views.asset.pixels', { x: px(doc.pixel_x), y: px(doc.pixel_y) });
  }
  if (name === 'bbox_x' && doc.bbox_x && doc.bbox_y) {
    const mm = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });
    return t('views.asset.millimetres', { x: mm.format(doc.bbox_x), y: mm.format(doc.bbox_y) });
  }
  const label = doc[`${name}_label`];
  if (label !== undefined && label !== null && label !== '') return formatFieldValue(label, 'none', lang);
  const field = ctx.fields.find((f) => f.field_name === name) ?? { field_name: name };
  return formatFieldValue(doc[name], valueFormatOf(field), lang, ctx.fileSizeBase);
}

/** What names a field's label: the visitor's and fallback language, the texts and the index fields. */
export type FieldLabelContext = Pick<FieldTextContext, 'lang' | 'fallbackLang' | 'fields' | 'textIn'>;

/**
 * An index field's label (admin-spec "Translation set": each asset attribute has a label per
 * language): the translation set's `metadata.<field>` in the visitor's language, else the index
 * field's label in that language, else the same two in the fallback language; undefined when none.
 * So a language an admin adds speaks its own labels once its set names them.
 */
export function indexFieldLabel(field: string, ctx: FieldLabelContext): string | undefined {
  const labels = ctx.fields.find((f) => f.field_name === field)?.default_labels;
  const inLanguage = (lang: string) => ctx.textIn(lang, `metadata.${field}`) || labels?.[lang];
  return inLanguage(ctx.lang) || inLanguage(ctx.fallbackLang) || undefined;
}

/**
 * A field's label in the visitor's language: the configured text key when it has a text, else the
 * index field's label (`indexFieldLabel`), else its name. The built-ins lose their unit, which their
 * value carries ("Width (px)" over "4000 × 3000 px" reads "Width").
 */
export function fieldRefLabel(ref: FieldRef, ctx: FieldTextContext): string {
  if (ref.translation && ctx.exists(ref.translation)) return ctx.t(ref.translation);
  const label = indexFieldLabel(ref.field_name, ctx) ?? ref.field_name;
  return builtIns.has(ref.field_name) ? label.replace(/\s*\(.*\)$/, '') : label;
}

/** An asset's title: its title field, else its file name, else "Asset {id}". */
export function assetTitle(doc: AssetDoc, titleField: string, ctx: FieldTextContext): string {
  return (
    fieldText(doc, titleField || 'title', ctx) ||
    fieldText(doc, 'filename', ctx) ||
    ctx.t('views.search.info.untitled', { id: doc.id })
  );
}

export interface FieldFormatter {
  text: (doc: AssetDoc, name: string) => string;
  label: (ref: FieldRef) => string;
  title: (doc: AssetDoc, titleField: string) => string;
}
