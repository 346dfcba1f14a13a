import { Plyr } from 'plyr-react';
import 'plyr-react/plyr.css';

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
export function VideoPlayer({ src, poster, title }: { src: string; poster?: string; title: string }) {
  return (
    <Plyr
      source={{ type: 'video', title, poster, sources: [{ src, type: 'video/mp4' }] }}
      options={{
        controls,
        iconUrl: 'plyr/plyr.svg',
        blankVideo: 'plyr/blank.mp4',
        loadSprite: true,
      }}
    />
  );
}
