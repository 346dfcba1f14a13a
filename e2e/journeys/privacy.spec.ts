import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { addUser } from '../support/accounts.ts';

/**
 * A public portal keeps photographers' positions to those with an account (docs/security.md "Field
 * audiences", "Stripped originals"): on the demo catalogue, a guest's answers carry no GPS position,
 * and a guest's original of a photo with one has no GPS tag left, with the same pixels as the
 * original a user downloads.
 */

const api = '/assetportal/api/';
const root = path.resolve(import.meta.dirname, '../..');
const exiftool = path.join(root, 'node_modules/exiftool-vendored.pl/bin/exiftool');

interface Doc {
  id: string;
  filename?: string;
  gps_lat?: number;
}

const docsOf = async (request: APIRequestContext, headers: Record<string, string> = {}): Promise<Doc[]> => {
  const res = await request.get(`${api}search`, { params: { solr_q: '*', solr_rows: '300' }, headers });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { response: { docs: Doc[] } }).response.docs;
};

/** The original (set 0) of an asset, downloaded as the caller would. */
async function original(request: APIRequestContext, id: string, headers: Record<string, string> = {}) {
  const signed = await request.get(`${api}download/`, { params: { id, csetid: '0' }, headers });
  expect(signed.ok(), await signed.text()).toBe(true);
  const file = await request.get((await signed.json()).url as string, { headers });
  expect(file.ok()).toBe(true);
  return file.body();
}

/** The file's GPS tags as exiftool reads them (none: an empty object). */
function gpsTags(file: string): Record<string, unknown> {
  const out = execFileSync('perl', [exiftool, '-j', '-G', '-gps:all', '-xmp:GPS*', file], { encoding: 'utf8' });
  const [tags = {}] = JSON.parse(out) as Record<string, unknown>[];
  return Object.fromEntries(Object.entries(tags).filter(([k]) => k !== 'SourceFile'));
}

/** The decoded pixels of a picture (ffmpeg, RGB). */
const pixels = (file: string): Buffer =>
  execFileSync('ffmpeg', ['-loglevel', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    maxBuffer: 512 * 1024 * 1024,
  });

test.describe('private metadata on a public portal (issue #48) @media', () => {
  test("a guest never receives the GPS position, and the guest's original of a GPS photo has no GPS tag and the same pixels", async ({
    playwright,
    baseURL,
  }) => {
    addUser('privacy-reader', 'users');
    const user = await playwright.request.newContext({ baseURL });
    const login = await user.post(`${api}session/get`, { data: { user: 'privacy-reader', pass: 'journey secret' } });
    expect(login.ok()).toBe(true);
    const userHeaders = { authorization: `Bearer ${(await login.json()).session as string}` };
    const guest = await playwright.request.newContext({ baseURL });

    const located = (await docsOf(user, userHeaders)).filter((d) => d.gps_lat !== undefined);
    expect(located.length, 'the demo has photos with a GPS position').toBeGreaterThan(0);
    const guestDocs = await docsOf(guest);
    expect(guestDocs.length).toBeGreaterThan(located.length);
    expect(guestDocs.filter((d) => 'gps_lat' in d || 'gps_lon' in d)).toEqual([]);
    const fields = await guest.get(`${api}index/fields`);
    expect(JSON.stringify(await fields.json())).not.toContain('gps_');

    const photo = located.find((d) => /\.jpe?g$/i.test(d.filename ?? '')) ?? located[0]!;
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-privacy-'));
    const asUser = path.join(dir, `user-${photo.filename}`);
    const asGuest = path.join(dir, `guest-${photo.filename}`);
    writeFileSync(asUser, await original(user, photo.id, userHeaders));
    writeFileSync(asGuest, await original(guest, photo.id));
    expect(Object.keys(gpsTags(asUser)).length, 'the original carries its position').toBeGreaterThan(0);
    expect(gpsTags(asGuest)).toEqual({});
    expect(pixels(asGuest).equals(pixels(asUser))).toBe(true);
    await user.dispose();
    await guest.dispose();
  });
});
