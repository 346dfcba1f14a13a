import { render, waitFor } from '@testing-library/react';
import { createElement, forwardRef } from 'react';
import type * as PlyrReact from 'plyr-react';
import type { PlyrOptions, PlyrProps } from 'plyr-react';
import { describe, expect, it, vi } from 'vitest';
import { defaultTranslations } from '@vitrine/contract/translations';
import { TranslationProvider, Translator } from '../../lib/translate.tsx';
import { defaultCaption, VideoPlayer } from './VideoPlayer.tsx';

// jsdom has no media queries, no text tracks and does not load media; Plyr asks for all three.
await vi.hoisted(async () => {
  const { mediaQueryList } = await import('../../test/mediaQueries.ts');
  Object.defineProperty(HTMLMediaElement.prototype, 'load', { value: () => undefined });
  globalThis.TextTrack ??= class {} as unknown as typeof TextTrack;
  const matchMedia = (query: string) => mediaQueryList(query, false);
  if (typeof window.matchMedia !== 'function') Object.defineProperty(window, 'matchMedia', { value: matchMedia });
});

// The real player, with the options it is given kept for the test to read.
const given = vi.hoisted(() => [] as PlyrOptions[]);
vi.mock('plyr-react', async (importOriginal) => {
  const real = await importOriginal<typeof PlyrReact>();
  const Recorded = forwardRef<unknown, PlyrProps>((props, ref) => {
    if (props.options) given.push(props.options);
    return createElement(real.Plyr, { ...props, ref } as Parameters<typeof real.Plyr>[0]);
  });
  return { ...real, Plyr: Recorded };
});

const video = {
  url: '/media/video/7?exp=1&sig=a',
  sources: [
    { src: '/media/video/7?exp=1&sig=a', type: 'video/mp4', size: 1000 },
    { src: '/media/download/7/0?exp=1&sig=b', type: 'video/webm', size: 5000 },
  ],
  captions: [
    { label: 'Englisch', src: '/media/caption/7/1?exp=1&sig=c', lang: 'en' },
    { label: 'Deutsch', src: '/media/caption/7/2?exp=1&sig=d', lang: 'de' },
  ],
};

function renderPlayer(language: string, shown = video) {
  const i18n = new Translator({ language, fallbackLanguage: 'en', messages: defaultTranslations });
  return render(
    <TranslationProvider i18n={i18n}>
      {/* As on the asset page, the player sits in a frame: Plyr wraps its video in an element of its own. */}
      <div>
        <VideoPlayer video={shown} poster="/media/preview/7?exp=1&sig=e" title="Harbour" />
      </div>
    </TranslationProvider>,
  );
}

describe('the video player (sources and caption tracks)', () => {
  it('has a source per source, the web MP4 first, and a captions track per caption', async () => {
    const { container } = renderPlayer('de');
    await waitFor(() => expect(container.querySelectorAll('video track')).toHaveLength(2));
    const sources = [...container.querySelectorAll('video source')].map((s) => [
      s.getAttribute('src'),
      s.getAttribute('type'),
    ]);
    expect(sources).toEqual([
      ['/media/video/7?exp=1&sig=a', 'video/mp4'],
      ['/media/download/7/0?exp=1&sig=b', 'video/webm'],
    ]);
    const tracks = [...container.querySelectorAll('video track')].map((t) => ({
      kind: t.getAttribute('kind'),
      srclang: t.getAttribute('srclang'),
      label: t.getAttribute('label'),
      src: t.getAttribute('src'),
      default: t.hasAttribute('default'),
    }));
    expect(tracks).toEqual([
      { kind: 'captions', srclang: 'en', label: 'Englisch', src: video.captions[0]?.src, default: false },
      { kind: 'captions', srclang: 'de', label: 'Deutsch', src: video.captions[1]?.src, default: true },
    ]);
  });

  it("marks the track in the visitor's language as the default one", async () => {
    const { container } = renderPlayer('en');
    await waitFor(() => expect(container.querySelectorAll('video track')).toHaveLength(2));
    expect([...container.querySelectorAll('video track[default]')].map((t) => t.getAttribute('srclang'))).toEqual([
      'en',
    ]);
  });

  it.each([
    ['en', 'Captions'],
    ['de', 'Untertitel'],
  ])("calls a track that names no language by the portal's text for captions (%s)", async (language, label) => {
    const unnamed = { ...video, captions: [{ label: '', src: '/media/caption/7/1?exp=1&sig=c', lang: '' }] };
    const { container } = renderPlayer(language, unnamed);
    await waitFor(() => expect(container.querySelectorAll('video track')).toHaveLength(1));
    expect(container.querySelector('video track')?.getAttribute('label')).toBe(label);
  });

  it('takes a track of the same base language when none is exact, and none for another language', () => {
    expect(defaultCaption([{ lang: 'en-GB' }, { lang: 'de-CH' }], 'de')).toBe(1);
    expect(defaultCaption([{ lang: 'de' }, { lang: 'de-CH' }], 'de-CH')).toBe(1);
    expect(defaultCaption([{ lang: '' }, { lang: 'en' }], 'fr')).toBe(-1);
  });
});

describe('portal-spec §9 "Video controls"', () => {
  it('gives the player play-large, play, progress, current-time, mute, volume, settings, pip, airplay, fullscreen', async () => {
    given.length = 0;
    const { container } = renderPlayer('en');
    await waitFor(() => expect(container.querySelector('.plyr__controls')).not.toBeNull());
    expect(given.at(-1)?.controls).toEqual([
      'play-large',
      'play',
      'progress',
      'current-time',
      'mute',
      'volume',
      'settings',
      'pip',
      'airplay',
      'fullscreen',
    ]);
    // The player draws those the browser supports, in that order (jsdom has no picture-in-picture or AirPlay).
    const bar = [...container.querySelectorAll('.plyr__controls > *')].map(
      (c) => c.getAttribute('data-plyr') ?? c.className.match(/plyr__(progress|time--current|volume|menu)/)?.[1],
    );
    expect(bar).toEqual(['play', 'progress', 'time--current', 'volume', 'menu', 'fullscreen']);
    // Mute sits with the volume slider.
    expect(container.querySelector('.plyr__volume [data-plyr="mute"]')).not.toBeNull();
    expect(container.querySelector('.plyr__control--overlaid[data-plyr="play"]')).not.toBeNull();
  });
});
