import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FacetIndex } from './facet-index/facet-index.ts';
import { readSnapshot, writeSnapshot, type SnapshotShape } from './snapshot.ts';

const shape: SnapshotShape = { coded: ['category'], numeric: [], strings: ['filename'], sort: [], text: '' };
const meta = { instance: 'catalogue', generation: 7, languages: ['en'], catalogueLanguages: ['en'] };

function smallIndex(): FacetIndex {
  const index = new FacetIndex(['category'], [], ['filename'], []);
  for (const [id, category] of [
    [1, 'boats'],
    [2, 'harbours'],
    [3, 'boats'],
  ] as const) {
    index.put({
      id,
      active: true,
      access: ['public'],
      codes: { category: [category] },
      numbers: {},
      strings: { filename: `${id}.jpg` },
      visual: null,
    });
  }
  index.pack();
  return index;
}

describe('index snapshot files (ARCHITECTURE §3 "Search")', () => {
  it(
    'reads a snapshot larger than 2 GiB, as ten million assets make (one read of the whole file may not hold it)',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-snapshot-'));
      try {
        const file = path.join(dir, 'snapshot');
        await writeSnapshot(file, smallIndex(), shape, meta);
        // The same snapshot with one more section of 2 GiB and a little (zeros: a hole in the file,
        // which costs no disk), its header and checksum made as the writer makes them.
        const small = await readFile(file);
        const jsonBytes = small.readUInt32LE(8);
        const header = JSON.parse(small.toString('utf8', 40, 40 + jsonBytes)) as {
          sections: { name: string; kind: string; offset: number; length: number }[];
          dataBytes: number;
        };
        const data = small.subarray((40 + jsonBytes + 7) & ~7);
        const extra = 2 ** 31 + 4096;
        header.sections.push({ name: 'reserved', kind: 'u8', offset: header.dataBytes, length: extra });
        header.dataBytes += extra;
        const json = Buffer.from(JSON.stringify(header));
        const start = (40 + json.length + 7) & ~7;
        const hash = createHash('sha1').update(data);
        const zeros = Buffer.alloc(64 * 1024 * 1024);
        for (let left = extra; left > 0; left -= zeros.length)
          hash.update(zeros.subarray(0, Math.min(left, zeros.length)));
        const head = Buffer.alloc(start);
        small.copy(head, 0, 0, 8);
        head.writeUInt32LE(json.length, 8);
        hash.digest().copy(head, 16);
        json.copy(head, 40);
        const large = path.join(dir, 'large');
        const handle = await open(large, 'w');
        await handle.write(head, 0, head.length, 0);
        await handle.write(data, 0, data.length, start);
        await handle.truncate(start + header.dataBytes);
        await handle.close();

        const read = await readSnapshot(large, () => shape);
        if (read.status !== 'loaded') throw new Error(JSON.stringify(read));
        expect(read.bytes).toBeGreaterThan(2 ** 31);
        expect(read.meta.generation).toBe(7);
        expect(read.index.size).toBe(3);
        expect(Array.from(read.index.ids)).toEqual([1, 2, 3]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
