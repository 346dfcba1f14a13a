import type { ConversionSet } from '../settings.ts';
import { outputOf } from './conversion-cache.ts';
import type { DownloadSource } from './download.repository.ts';

/** A file name that is safe in any file system and inside a zip: no folders, no control characters. */
function safeName(name: string, fallback: string): string {
  const clean = [...name.normalize('NFC')]
    .map((c) => (c.charCodeAt(0) < 0x20 || c === '\u007f' || '/\\:*?"<>|'.includes(c) ? '_' : c))
    .join('')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 200);
  return clean || fallback;
}

/** The download name of an asset in a set: its own name, with the extension of the set's output. */
export function downloadName(src: DownloadSource, set: ConversionSet | undefined): string {
  const name = safeName(src.filename, `asset-${src.id}`);
  const out = outputOf(set);
  if (!out || (set?.format === 'pdf' && src.format === 'pdf')) return name;
  const base = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
  return `${base || `asset-${src.id}`}.${out.ext}`;
}

/** Makes names unique without regard to case (file systems that ignore it): "a.jpg", "a (2).jpg", … */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const dot = name.lastIndexOf('.');
    const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
