// The conversion sets of the settings file (`conversionSets`): what each download set is made of,
// its title, and the sets a fresh install starts with. settings.ts composes them into the file's schema.
import { z } from 'zod';
import { assetGroups } from '@vitrine/contract/fields';
import { oneOrByLanguage } from '@vitrine/contract/formats';

/**
 * A conversion set (admin-spec §3 "Convert set"): what a download in this set is made of. Set 0 is
 * always the original file and needs no entry here. `userGroups` may use the set (as may groups that
 * list it in their `downloadSets`); `assetGroups` are the kinds of asset it applies to (none: all).
 */
export const conversionSetSchema = z
  .object({
    id: z.number().int().min(1).describe('0 is reserved for the original file'),
    title: oneOrByLanguage(z.string().min(1), 'a title').describe(
      'One title, or one per interface language ({"en": …, "de": …})',
    ),
    format: z
      .enum(['jpeg', 'png', 'webp', 'tiff', 'avif', 'pdf', 'mp4', 'm4a'])
      .describe('pdf passes a PDF through unchanged; mp4 and m4a are made by ffmpeg'),
    maxSize: z.number().int().positive().optional().describe('Longest side in pixels; never enlarged'),
    quality: z.number().int().min(1).max(100).optional(),
    colourSpace: z.enum(['srgb', 'cmyk', 'b-w', 'keep']).default('srgb'),
    iccProfile: z.string().min(1).optional().describe('An ICC profile file to convert to (overrides colourSpace)'),
    density: z.number().int().positive().optional().describe('Resolution written into the file, pixels per inch'),
    keepMetadata: z.boolean().default(false).describe('Keep EXIF, IPTC and XMP of the original'),
    eager: z
      .boolean()
      .default(false)
      .describe('Make this set at import for every asset it applies to, rather than on the first download'),
    assetGroups: z.array(z.enum(assetGroups)).default([]),
    userGroups: z.array(z.string().min(1)).default([]),
  })
  .strict();
export type ConversionSet = z.infer<typeof conversionSetSchema>;

const originalTitles: Record<string, string> = { en: 'Original file', de: 'Originaldatei' };

/** The title of a conversion set (0: the original file) in the first of `langs` it has. */
export function conversionSetTitle(file: { conversionSets: ConversionSet[] }, id: number, langs: string[]): string {
  const set = file.conversionSets.find((s) => s.id === id);
  const title = set ? set.title : originalTitles;
  if (typeof title === 'string') return title;
  for (const l of langs) if (title[l]) return title[l];
  return Object.values(title)[0] ?? '';
}

/** Sets that make sense for the demo catalogue: web and print pictures, web video, audio for players. */
export const defaultConversionSets: z.input<typeof conversionSetSchema>[] = [
  {
    id: 1,
    title: { en: 'Web JPEG (2048 px)', de: 'Web-JPEG (2048 px)' },
    format: 'jpeg',
    maxSize: 2048,
    quality: 85,
    density: 72,
    assetGroups: ['image', 'document', '3d'],
    userGroups: ['public', 'users', 'admins'],
  },
  {
    id: 2,
    title: { en: 'Print TIFF (300 ppi)', de: 'Druck-TIFF (300 ppi)' },
    format: 'tiff',
    colourSpace: 'keep',
    density: 300,
    keepMetadata: true,
    assetGroups: ['image'],
    userGroups: ['users', 'admins'],
  },
  {
    id: 3,
    title: { en: 'Web video (MP4)', de: 'Web-Video (MP4)' },
    format: 'mp4',
    maxSize: 1280,
    assetGroups: ['video'],
    userGroups: ['public', 'users', 'admins'],
  },
  {
    id: 4,
    title: { en: 'Audio (AAC)', de: 'Audio (AAC)' },
    format: 'm4a',
    assetGroups: ['audio', 'video'],
    userGroups: ['users', 'admins'],
  },
  {
    id: 5,
    title: { en: 'PDF document', de: 'PDF-Dokument' },
    format: 'pdf',
    colourSpace: 'keep',
    keepMetadata: true,
    assetGroups: ['document'],
    userGroups: ['public', 'users', 'admins'],
  },
];
