import { Plyr } from 'plyr-react';
import 'plyr-react/plyr.css';
import { useMemo } from 'react';
import { useTranslation } from '../../lib/translate.tsx';

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
] as const;

export function VideoPlayer({ src, poster, title }: { src: string; poster?: string; title: string }) {
  const { t } = useTranslation();
  // Stable objects: the player is built again whenever its source or options change.
  const source = useMemo(
    () => ({ type: 'video' as const, title, poster, sources: [{ src, type: 'video/mp4' }] }),
    [src, poster, title],
  );
  const options = useMemo(
    () => ({
      controls,
      iconUrl: 'plyr/plyr.svg',
      blankVideo: 'plyr/blank.mp4',
      loadSprite: true,
      i18n: Object.fromEntries(labels.map((key) => [key, t(`views.asset.player.${key}`)])),
    }),
    [t],
  );
  return <Plyr source={source} options={options} />;
}
