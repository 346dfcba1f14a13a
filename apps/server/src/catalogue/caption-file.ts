import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGE_TAG } from '@vitrine/contract/languages';

/**
 * Caption tracks written beside a video (docs/catalogue.md "Captions"): `clip.vtt`, `clip.en.vtt`,
 * `clip.de.srt`, `clip.en-GB.vtt` belong to `clip.<video extension>` in the same folder, in the
 * language the name states (none when it states none). They are read at import and kept in the
 * database; SubRip is turned into WebVTT when a player asks for it.
 */

export type CaptionFormat = 'vtt' | 'srt';

/** A caption file found beside a video. */
export interface CaptionSidecar {
  file: string;
  format: CaptionFormat;
  /** BCP 47 tag from the name, canonical (`en-GB`); undefined when the name states none. */
  lang: string | undefined;
}

/** A caption track as the import stores it. */
export interface CaptionTrack {
  lang: string;
  format: CaptionFormat;
  filename: string;
  sha256: string;
  content: string;
}

/** Larger caption files are refused: a track of a feature film is a few hundred kilobytes. */
export const MAX_CAPTION_BYTES = 1024 * 1024;

export class CaptionFileError extends Error {}

const captionFormats: readonly string[] = ['vtt', 'srt'];

/** The caption format of a file name, or undefined for a file of another kind. */
export function captionFormatOf(name: string): CaptionFormat | undefined {
  const ext = path.extname(name).slice(1).toLowerCase();
  return captionFormats.includes(ext) ? (ext as CaptionFormat) : undefined;
}

/** `en`, `de-CH`, `en-GB` canonical, or undefined when `part` is no language tag. */
function languageTag(part: string): string | undefined {
  if (!LANGUAGE_TAG.test(part)) return undefined;
  try {
    return Intl.getCanonicalLocales(part)[0];
  } catch {
    return undefined;
  }
}

/**
 * Which video of a folder a caption file belongs to: `videoStems` maps the names of the folder's
 * videos without their extension to their files. A name that is a video's name itself wins over a
 * language part (`clip.en.vtt` belongs to `clip.en.mp4` when there is one).
 */
export function captionTarget<T>(
  name: string,
  videoStems: ReadonlyMap<string, readonly T[]>,
): { videos: readonly T[]; lang: string | undefined } | undefined {
  if (!captionFormatOf(name)) return undefined;
  const stem = name.slice(0, -path.extname(name).length);
  const own = videoStems.get(stem);
  if (own) return { videos: own, lang: undefined };
  const dot = stem.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const lang = languageTag(stem.slice(dot + 1));
  const videos = videoStems.get(stem.slice(0, dot));
  return lang && videos ? { videos, lang } : undefined;
}

/**
 * Reads a caption file for storing: refused (CaptionFileError, with the reason) when it is larger
 * than MAX_CAPTION_BYTES, not UTF-8 text, or not a WebVTT or SubRip file.
 */
export async function readCaption(
  sidecar: CaptionSidecar,
  defaultLang: string | undefined,
  files: CaptionFiles = localFiles,
): Promise<CaptionTrack> {
  const size = await files.size(sidecar.file);
  if (size > MAX_CAPTION_BYTES) {
    throw new CaptionFileError(`larger than ${MAX_CAPTION_BYTES / 1024 / 1024} MB (${size} bytes)`);
  }
  const bytes = await files.bytes(sidecar.file);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CaptionFileError('not UTF-8 text');
  }
  if (text.includes('\0')) throw new CaptionFileError('not text');
  const body = text.replace(/^\uFEFF/, '');
  if (sidecar.format === 'vtt' && !/^WEBVTT(?:[ \t]|\r?\n|$)/.test(body)) {
    throw new CaptionFileError('a WebVTT file starts with "WEBVTT"');
  }
  if (sidecar.format === 'srt' && !SRT_TIMING.test(body)) {
    throw new CaptionFileError('no SubRip cue timing (00:00:01,000 --> 00:00:02,000) found');
  }
  return {
    lang: sidecar.lang ?? defaultLang ?? '',
    format: sidecar.format,
    filename: path.basename(sidecar.file),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    content: body,
  };
}

/** How the import reads caption files by the names it gives them (local paths, or objects' `s3://` names). */
export interface CaptionFiles {
  size(file: string): Promise<number>;
  bytes(file: string): Promise<Buffer>;
}

const localFiles: CaptionFiles = { size: async (file) => (await stat(file)).size, bytes: (file) => readFile(file) };

const SRT_TIMING = /^\s*\d{1,3}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,3}:\d{2}:\d{2}[,.]\d{1,3}/m;

/**
 * SubRip as WebVTT: the `WEBVTT` header, a byte order mark dropped, CRLF and CR line ends as LF,
 * the decimal comma of cue timings as a point (`00:00:01,000` → `00:00:01.000`). Cue numbers stay:
 * WebVTT reads them as cue identifiers. A WebVTT track is answered as it is (line ends made LF).
 */
export function toWebVtt(text: string, format: CaptionFormat): string {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (format === 'vtt') return lines;
  const cues = lines
    .split('\n')
    .map((line) =>
      /-->/.test(line)
        ? line.replace(
            /(\d{1,3}:\d{2}:\d{2}),(\d{1,3})/g,
            (_, time: string, ms: string) => `${time}.${ms.padEnd(3, '0')}`,
          )
        : line,
    )
    .join('\n')
    .replace(/^\n+/, '');
  return `WEBVTT\n\n${cues}`;
}
