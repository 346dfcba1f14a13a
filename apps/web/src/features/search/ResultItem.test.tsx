import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rgbaToThumbHash } from 'thumbhash';
import { describe, expect, it, vi } from 'vitest';
import { defaultTranslations } from '@vitrine/contract/translations';
import { TranslationProvider, Translator } from '../../lib/translate.tsx';
import { expectSizedPicture } from '../../test/pictures.ts';
import { must } from '@vitrine/contract/must';
import { AssetImage, IconSet, placeholderUrl } from './ResultItem.tsx';

/** A real ThumbHash of a 4×4 picture, red on the left and blue on the right, as the server stores it. */
function hashOfPicture(): string {
  const rgba = new Uint8Array(4 * 4 * 4);
  for (let i = 0; i < 16; i++) rgba.set(i % 4 < 2 ? [220, 20, 20, 255] : [20, 20, 220, 255], i * 4);
  return btoa(String.fromCharCode(...rgbaToThumbHash(4, 4, rgba)));
}

describe('result placeholders (portal-spec §2 "Poster, thumbnail and list rows": the ThumbHash as skeleton)', () => {
  it('draws the ThumbHash of an asset under its picture (decoded after the render); an asset without one keeps the plain skeleton', async () => {
    const hash = hashOfPicture();
    const { container } = render(
      <>
        <AssetImage doc={{ id: '1', url: '/media/thumb/1', thumbhash: hash }} alt="Tulips" width={300} height={200} />
        <AssetImage doc={{ id: '2', url: '/media/thumb/2' }} alt="Harbour" width={300} height={200} />
      </>,
    );
    const images = container.querySelectorAll<HTMLElement>('.vt-image');
    const withHash = must(images[0], 'the picture with a ThumbHash');
    const without = must(images[1], 'the picture without one');
    expect(withHash.dataset.placeholder).toBe('thumbhash');
    await waitFor(() => expect(withHash.style.backgroundImage).toMatch(/^url\("?data:image\/png;base64,/));
    expect(withHash.querySelector('img')?.getAttribute('src')).toBe('/media/thumb/1');
    expect(without.dataset.placeholder).toBe('skeleton');
    expect(without.style.backgroundImage).toBe('');
  });

  it('gives the picture both thumbnail widths, in their real widths, sized as drawn; the first row is fetched first', () => {
    const { container } = render(
      <>
        <AssetImage
          doc={{ id: '1', url: '/media/thumb/1?exp=9&sig=s', pixel_x: 1200, pixel_y: 1800 }}
          alt="Tower"
          width={180}
          height={200}
          first
        />
        <AssetImage doc={{ id: '2', url: '/media/thumb/2?exp=9&sig=t' }} alt="Harbour" width={330} height={200} />
      </>,
    );
    const [first, later] = [...container.querySelectorAll('img')];
    // A portrait picture fills a third of the 400 × 250 and 800 × 500 boxes' width.
    expectSizedPicture(first, {
      srcset: '/media/thumb/1?exp=9&sig=s&w=400 167w, /media/thumb/1?exp=9&sig=s&w=800 333w',
      sizes: '180px',
      first: true,
    });
    expect(first).toHaveAttribute('decoding', 'async');
    expect(first).toHaveAttribute('width', '180');
    // Without IntersectionObserver (jsdom) every picture is revealed at once.
    expectSizedPicture(later, {
      srcset: '/media/thumb/2?exp=9&sig=t&w=400 400w, /media/thumb/2?exp=9&sig=t&w=800 800w',
      sizes: '330px',
      first: false,
    });
    expect(later).toHaveAttribute('height', '200');
  });

  it('answers the same image for the same hash and nothing for a hash that cannot be decoded', () => {
    const hash = hashOfPicture();
    expect(placeholderUrl(hash)).toBe(placeholderUrl(hash));
    expect(placeholderUrl('!!not base64!!')).toBeUndefined();
    expect(placeholderUrl(undefined)).toBeUndefined();
  });
});

describe('poster icon set (portal-spec §2 "Poster, thumbnail and list rows")', () => {
  it.each([
    ['en', 'Download'],
    ['de', 'Herunterladen'],
  ])('downloads the asset through the download flow, in %s', async (language, label) => {
    const actions = { share: vi.fn(), toggleBookmark: vi.fn(), download: vi.fn() };
    const i18n = new Translator({
      language,
      fallbackLanguage: 'en',
      messages: defaultTranslations,
    });
    const doc = { id: '7', url: '/media/thumb/7' };
    render(
      <TranslationProvider i18n={i18n}>
        <IconSet doc={doc} width={300} actions={actions} bookmarked={false} bookmarksLoading={false} />
      </TranslationProvider>,
    );
    const download = screen.getByRole('button', { name: label });
    expect(download).toBeEnabled();
    await userEvent.click(download);
    expect(actions.download).toHaveBeenCalledWith(doc);
  });

  it.each([
    ['en', 'More actions', ['Copy link', 'Add to bookmarks', 'Download'], 'Download'],
    ['de', 'Weitere Aktionen', ['Link kopieren', 'Zur Merkliste hinzufügen', 'Herunterladen'], 'Herunterladen'],
  ])(
    'puts what a narrow poster has no room for into a "More actions" menu, in %s',
    async (language, more, overflow, download) => {
      const actions = { share: vi.fn(), toggleBookmark: vi.fn(), download: vi.fn() };
      const i18n = new Translator({ language, fallbackLanguage: 'en', messages: defaultTranslations });
      const doc = { id: '7', url: '/media/thumb/7' };
      // 120 px: room for two slots of 40 (120 − 19.2), the first action and the menu.
      render(
        <TranslationProvider i18n={i18n}>
          <IconSet doc={doc} width={120} actions={actions} bookmarked={false} bookmarksLoading={false} />
        </TranslationProvider>,
      );
      const user = userEvent.setup();
      expect(screen.getAllByRole('link')).toHaveLength(1);
      expect(screen.queryByRole('button', { name: download })).toBeNull();
      await user.click(screen.getByRole('button', { name: more }));
      const menu = await screen.findByRole('menu');
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((item) => item.textContent),
      ).toEqual(overflow);
      await user.click(within(menu).getByRole('menuitem', { name: download }));
      expect(actions.download).toHaveBeenCalledWith(doc);
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    },
  );

  it('draws no icon set on a poster narrower than one slot (40 px after 19.2)', () => {
    const actions = { share: vi.fn(), toggleBookmark: vi.fn(), download: vi.fn() };
    const i18n = new Translator({ language: 'en', fallbackLanguage: 'en', messages: defaultTranslations });
    const { container } = render(
      <TranslationProvider i18n={i18n}>
        <IconSet doc={{ id: '7' }} width={59} actions={actions} bookmarked={false} bookmarksLoading={false} />
      </TranslationProvider>,
    );
    expect(container.querySelector('.vt-iconset')).toBeNull();
  });

  it('opens the asset page of an id that needs encoding', () => {
    const actions = { share: vi.fn(), toggleBookmark: vi.fn(), download: vi.fn() };
    const i18n = new Translator({ language: 'en', fallbackLanguage: 'en', messages: defaultTranslations });
    render(
      <TranslationProvider i18n={i18n}>
        <IconSet
          doc={{ id: 'a/b#c d', url: '' }}
          width={300}
          actions={actions}
          bookmarked={false}
          bookmarksLoading={false}
        />
      </TranslationProvider>,
    );
    expect(screen.getByRole('link', { name: 'Open asset page' })).toHaveAttribute('href', '#/asset/a%2Fb%23c%20d');
  });
});
