import { Plyr } from 'plyr-react';
import 'plyr-react/plyr.css';
import { useMemo } from 'react';
import type { CallAnswer } from '@vitrine/contract/call';
import type { videoCall } from '@vitrine/contract/download';
import { useTranslation } from '../../lib/translate.tsx';

type VideoAnswer = CallAnswer<typeof videoCall>;

/** The control list of portal-spec §9 "Video controls" (Plyr's names). */
const controls = [
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
];

/**
 * The video player (Plyr). Its icon sprite and blank video are files we serve, so the player
 * never reaches out to a CDN. Loaded lazily: only pages with a video load the player.
 */
const labels = [
  'play',
  'pause',
  'played',
  'buffered',
  'currentTime',
  'duration',
  'volume',
  'mute',
  'unmute',
  'enterFullscreen',
  'exitFullscreen',
  'settings',
  'pip',
  'airplay',
  'speed',
  'normal',
  'quality',
  'seek',
  'menuBack',
  'captions',
  'enableCaptions',
  'disableCaptions',
  'enabled',
  'disabled',
] as const;

/** The caption track in the visitor's language (`de` matches `de-CH` and the other way round), if any. */
export function defaultCaption(captions: readonly { lang: string }[], language: string): number {
  const base = (tag: string) => tag.toLowerCase().split('-')[0];
  const exact = captions.findIndex((c) => c.lang.toLowerCase() === language.toLowerCase());
  return exact >= 0 ? exact : captions.findIndex((c) => c.lang !== '' && base(c.lang) === base(language));
}

/**
 * One `<source>` per source (the browser plays the first it can: the web MP4) and one
 * `<track kind="captions">` per caption track, the one in the visitor's language shown by default.
 */
export function VideoPlayer({
  video,
  poster,
  title,
}: {
  video: Pick<VideoAnswer, 'url' | 'sources' | 'captions'>;
  poster?: string;
  title: string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  // Stable objects: the player is built again whenever its source or options change.
  const source = useMemo(() => {
    const chosen = defaultCaption(video.captions, language);
    return {
      type: 'video' as const,
      title,
      poster,
      // Sizes are left out: Plyr would make them a quality menu and pick by it, not by order.
      sources: (video.sources.length > 0 ? video.sources : [{ src: video.url, type: 'video/mp4' }]).map(
        ({ src, type }) => ({ src, type }),
      ),
      tracks: video.captions.map((c, i) => ({
        kind: 'captions' as const,
        // A track that names no language is called by the portal's text for captions.
        label: c.label || t('views.asset.player.captions'),
        srcLang: c.lang,
        src: c.src,
        ...(i === chosen ? { default: true } : {}),
      })),
    };
  }, [video, poster, title, language, t]);
  const options = useMemo(
    () => ({
      controls,
      iconUrl: 'plyr/plyr.svg',
      blankVideo: 'plyr/blank.mp4',
      loadSprite: true,
      captions: { active: false, language: language.split('-')[0], update: false },
      i18n: Object.fromEntries(labels.map((key) => [key, t(`views.asset.player.${key}`)])),
    }),
    [t, language],
  );
  return <Plyr source={source} options={options} />;
}
