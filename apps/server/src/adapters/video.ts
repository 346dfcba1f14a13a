import { runTool } from './process.ts';

/** ffmpeg and ffprobe (Debian packages), for video and audio: probing, posters, web MP4, waveforms. */
export interface AvProbe {
  duration: number | null;
  width: number | null;
  height: number | null;
  hasVideo: boolean;
  hasAudio: boolean;
  videoCodec: string | null;
  audioCodec: string | null;
}

interface FfprobeOutput {
  format?: { duration?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    disposition?: { attached_pic?: number };
  }[];
}

const quiet = ['-nostdin', '-hide_banner', '-loglevel', 'error'];

/**
 * Inputs are read from local files and pipes only: a playlist or reference list inside an uploaded
 * file (HLS, DASH, concat) must not make the server fetch web addresses or read other protocols.
 */
const localOnly = ['-protocol_whitelist', 'file,pipe'];
/** The input options of every ffmpeg run, in front of the file read. */
const input = (file: string) => [...localOnly, '-i', file];

export async function probeAv(file: string): Promise<AvProbe> {
  const out = await runTool(
    'ffprobe',
    ['-v', 'error', ...localOnly, '-print_format', 'json', '-show_format', '-show_streams', file],
    {
      timeoutMs: 60_000,
    },
  );
  const data = JSON.parse(out.toString('utf8')) as FfprobeOutput;
  const streams = data.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(data.format?.duration);
  if (!video && !audio) throw new Error('no audio or video stream found');
  return {
    duration: Number.isFinite(duration) ? duration : null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    hasVideo: Boolean(video),
    hasAudio: Boolean(audio),
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
  };
}

/** One frame as PNG, taken a little into the clip (the first frame is often black). */
export async function videoPoster(file: string, duration: number | null): Promise<Buffer> {
  const at = duration && duration > 2 ? Math.min(duration * 0.1, 10) : 0;
  return runTool(
    'ffmpeg',
    [...quiet, '-ss', at.toFixed(2), ...input(file), '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'],
    { timeoutMs: 120_000 },
  );
}

const WEB_WIDTH = 1280;

/**
 * H.264/AAC MP4 at most 1280 px wide with the index up front, so browsers start playing at once.
 * A source that already is such a video is only rewritten with the index moved, not re-encoded.
 */
export async function webMp4(file: string, out: string, probe: AvProbe): Promise<void> {
  const { hasAudio } = probe;
  const webReady =
    probe.videoCodec === 'h264' && (probe.width ?? Infinity) <= WEB_WIDTH && (!hasAudio || probe.audioCodec === 'aac');
  const codecs = webReady
    ? ['-c', 'copy']
    : [
        ...(hasAudio ? ['-c:a', 'aac', '-b:a', '128k'] : []),
        ...['-vf', `scale='min(${WEB_WIDTH},iw)':-2`, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23'],
        ...['-pix_fmt', 'yuv420p'],
      ];
  await runTool(
    'ffmpeg',
    [
      ...[...quiet, '-y', ...input(file), '-map', '0:v:0', ...(hasAudio ? ['-map', '0:a:0'] : [])],
      ...codecs,
      // The player's copy carries no metadata of the original (positions, owners: docs/security.md).
      ...['-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', out],
    ],
    { timeoutMs: 30 * 60_000 },
  );
}

/** A waveform picture of an audio file (PNG), the preview of sounds. */
export async function audioWaveform(file: string): Promise<Buffer> {
  return runTool(
    'ffmpeg',
    [
      ...quiet,
      ...input(file),
      '-filter_complex',
      'aformat=channel_layouts=mono,showwavespic=s=1600x600:colors=0x2f6fb3,pad=1600:600:0:0:color=0xf4f6f8',
      '-frames:v',
      '1',
      '-f',
      'image2pipe',
      '-vcodec',
      'png',
      '-',
    ],
    { timeoutMs: 120_000 },
  );
}

/** Decodes an image format the image library cannot read (BMP, TGA, …) into PNG. */
export async function decodeImageWithFfmpeg(file: string): Promise<Buffer> {
  return runTool('ffmpeg', [...quiet, ...input(file), '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'], {
    timeoutMs: 60_000,
  });
}

/** A video or audio file converted for download: H.264/AAC MP4 at most `maxSize` wide, or AAC audio. */
export async function convertAv(
  file: string,
  out: string,
  c: { format: 'mp4' | 'm4a'; maxSize?: number; keepMetadata: boolean },
  signal?: AbortSignal,
): Promise<void> {
  const probe = await probeAv(file);
  signal?.throwIfAborted();
  const meta = c.keepMetadata ? ['-map_metadata', '0'] : ['-map_metadata', '-1'];
  if (c.format === 'm4a') {
    if (!probe.hasAudio) throw new Error('the file has no sound to convert');
    await runTool(
      'ffmpeg',
      [
        ...[...quiet, '-y', ...input(file), '-map', '0:a:0', '-c:a', 'aac', '-b:a', '192k', ...meta],
        // The index up front: a player starts before the whole file is loaded.
        ...['-movflags', '+faststart', '-f', 'ipod', out],
      ],
      { timeoutMs: 30 * 60_000, signal },
    );
    return;
  }
  if (!probe.hasVideo) throw new Error('the file has no picture to convert');
  const width = c.maxSize ?? 1920;
  await runTool(
    'ffmpeg',
    [
      ...[...quiet, '-y', ...input(file), '-map', '0:v:0', ...(probe.hasAudio ? ['-map', '0:a:0', '-c:a', 'aac'] : [])],
      ...['-vf', `scale='min(${width},iw)':-2`, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '22'],
      ...['-pix_fmt', 'yuv420p', ...meta, '-movflags', '+faststart', '-f', 'mp4', out],
    ],
    { timeoutMs: 60 * 60_000, signal },
  );
}
