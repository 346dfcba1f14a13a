import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { runTool } from './process.ts';

/** poppler-utils (Debian): page count and page size with pdfinfo, page pictures with pdftoppm. */
export interface PdfInfo {
  pages: number;
  /** Size of the first page in PostScript points (1/72 inch). */
  widthPt: number | null;
  heightPt: number | null;
}

export async function pdfInfo(file: string): Promise<PdfInfo> {
  const text = (await runTool('pdfinfo', [file], { timeoutMs: 60_000 })).toString('utf8');
  const pages = Number(/^Pages:\s+(\d+)/m.exec(text)?.[1]);
  if (!Number.isInteger(pages) || pages < 1) throw new Error('the PDF has no pages');
  const size = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(text);
  return { pages, widthPt: size ? Number(size[1]) : null, heightPt: size ? Number(size[2]) : null };
}

/** One page as PNG, its longer side `maxPx` pixels. Pages count from 1. */
export async function pdfPagePng(file: string, page: number, maxPx: number): Promise<Buffer> {
  return runTool(
    'pdftoppm',
    ['-png', '-f', String(page), '-l', String(page), '-scale-to', String(maxPx), '-singlefile', file],
    { timeoutMs: 120_000 },
  );
}

/**
 * Pages `from`..`to` as JPEG files in `dir` in one run (the document is parsed once). pdftoppm pads
 * page numbers to the width of the last page number; the answer maps page → file.
 */
export async function pdfPagesJpeg(
  file: string,
  from: number,
  to: number,
  maxPx: number,
  dir: string,
  timeoutMs = 10 * 60_000,
): Promise<Map<number, string>> {
  await runTool(
    'pdftoppm',
    [
      '-jpeg',
      '-jpegopt',
      'quality=82',
      '-f',
      String(from),
      '-l',
      String(to),
      '-scale-to',
      String(maxPx),
      file,
      path.join(dir, 'page'),
    ],
    { timeoutMs },
  );
  const out = new Map<number, string>();
  for (const name of await readdir(dir)) {
    const m = /^page-0*(\d+)\.jpg$/.exec(name);
    if (m) out.set(Number(m[1]), path.join(dir, name));
  }
  return out;
}
