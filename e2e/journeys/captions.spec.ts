import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';

const API = '/assetportal/api/';

test.use({ locale: 'en-GB' });

/** The demo's city clip, which has English and German caption files beside it (scripts/demo-captions). */
async function cityClip(request: APIRequestContext): Promise<string> {
  const res = await request.get(`${API}search`, {
    params: { solr_q: '*', filter: JSON.stringify([{ key: 'asset_groups', values: ['video'] }]), solr_rows: '50' },
  });
  expect(res.ok()).toBe(true);
  const docs = ((await res.json()) as { response: { docs: { id: string; filename?: string }[] } }).response.docs;
  const clip = docs.find((d) => d.filename === 'city-night.mp4');
  expect(clip, 'the demo catalogue has city-night.mp4').toBeDefined();
  return clip?.id ?? '';
}

async function openIn(page: Page, language: 'en' | 'de', id: string): Promise<void> {
  await page.addInitScript((locale) => localStorage.setItem('locale', locale), language);
  await page.goto(`/#/asset/${id}`);
  await expect(page.locator('video track')).toHaveCount(2, { timeout: 20_000 });
}

const tracks = (page: Page) =>
  page.locator('video track').evaluateAll((elements) =>
    elements.map((t) => ({
      kind: t.getAttribute('kind'),
      srclang: t.getAttribute('srclang'),
      label: t.getAttribute('label'),
      default: t.hasAttribute('default'),
    })),
  );

/** The text of the cue a track shows at `seconds`, the track switched to showing. */
async function cueAt(page: Page, lang: string, seconds: number): Promise<string> {
  return page.locator('.plyr video').evaluate(
    async (element, [language, at]) => {
      const video = element as HTMLVideoElement;
      const all = Array.from(video.textTracks);
      const track = all.find((t) => t.language === language);
      if (!track) return `no track in ${language}`;
      for (const other of all) other.mode = other === track ? 'showing' : 'disabled';
      if (video.readyState < 1)
        await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }));
      // A track's cues load once it is showing.
      for (let i = 0; i < 100 && !track.cues?.length; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const seeked = new Promise((resolve) => video.addEventListener('seeked', resolve, { once: true }));
      video.currentTime = at;
      await seeked;
      for (let i = 0; i < 40 && !track.activeCues?.length; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const active = track.activeCues;
      return Array.from({ length: active?.length ?? 0 }, (_, i) => (active?.[i] as VTTCue).text).join('\n');
    },
    [lang, seconds] as const,
  );
}

test.describe('captions of a video (portal-spec "Video source", docs/catalogue.md "Captions")', () => {
  test('shows the caption files beside a video as its tracks, in the visitor language by default', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    await openIn(page, 'en', await cityClip(request));
    expect(await tracks(page)).toEqual([
      { kind: 'captions', srclang: 'de', label: 'German', default: false },
      { kind: 'captions', srclang: 'en', label: 'English', default: true },
    ]);
    const textTracks = await page.locator('.plyr video').evaluate((v) => {
      const list = (v as HTMLVideoElement).textTracks;
      return Array.from(list, (t) => ({
        kind: t.kind,
        language: t.language,
        label: t.label,
      }));
    });
    expect(textTracks).toEqual([
      { kind: 'captions', language: 'de', label: 'German' },
      { kind: 'captions', language: 'en', label: 'English' },
    ]);
    expect(await cueAt(page, 'en', 1)).toBe('The lights of the city at night');
    // The German track is a SubRip file, which the server answers as WebVTT.
    expect(await cueAt(page, 'de', 5)).toBe('Unten fließt der Verkehr durch die Straße');
    // The player stays in its picture's frame.
    const [frame, player] = await Promise.all([
      page.locator('.plyr').evaluate((e) => e.parentElement?.getBoundingClientRect().height ?? 0),
      page.locator('.plyr').evaluate((e) => e.getBoundingClientRect().height),
    ]);
    expect(Math.abs(frame - player)).toBeLessThanOrEqual(1);
  });

  test('names the tracks in German for a German visitor and picks the German one', async ({ page, request }) => {
    test.setTimeout(60_000);
    await openIn(page, 'de', await cityClip(request));
    expect(await tracks(page)).toEqual([
      { kind: 'captions', srclang: 'de', label: 'Deutsch', default: true },
      { kind: 'captions', srclang: 'en', label: 'Englisch', default: false },
    ]);
    expect(await cueAt(page, 'de', 1)).toBe('Die Lichter der Stadt bei Nacht');
  });
});
