import { describe, expect, it } from 'vitest';
import { captionTarget, toWebVtt } from './caption-file.ts';

describe('SubRip as WebVTT', () => {
  it('writes the header, decimal points in timings, LF line ends, and keeps cue numbers as identifiers', () => {
    const srt =
      '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHello, world\r\n\r\n2\r\n00:01:02,5 --> 00:01:04,020\r\nSecond\r\n';
    expect(toWebVtt(srt, 'srt')).toBe(
      'WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\nHello, world\n\n2\n00:01:02.500 --> 00:01:04.020\nSecond\n',
    );
  });

  it('leaves commas in the text of cues alone and handles old Mac line ends', () => {
    expect(toWebVtt('1\r00:00:00,100 --> 00:00:00,900\rOne, two, three\r', 'srt')).toBe(
      'WEBVTT\n\n1\n00:00:00.100 --> 00:00:00.900\nOne, two, three\n',
    );
  });

  it('answers WebVTT as it is, without its byte order mark', () => {
    expect(toWebVtt('\uFEFFWEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nHi\r\n', 'vtt')).toBe(
      'WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n',
    );
  });
});

describe('which video a caption file belongs to', () => {
  const videos = new Map([
    ['clip', ['clip.mp4']],
    ['talk.en', ['talk.en.mov']],
  ]);
  it('reads the language from the name, in canonical form', () => {
    expect(captionTarget('clip.vtt', videos)).toEqual({ videos: ['clip.mp4'], lang: undefined });
    expect(captionTarget('clip.de.srt', videos)).toEqual({ videos: ['clip.mp4'], lang: 'de' });
    expect(captionTarget('clip.en-gb.VTT', videos)).toEqual({ videos: ['clip.mp4'], lang: 'en-GB' });
    // A video's own name wins over a language part.
    expect(captionTarget('talk.en.vtt', videos)).toEqual({ videos: ['talk.en.mov'], lang: undefined });
  });
  it('answers nothing for a name of no video, a part that is no language, or another kind of file', () => {
    expect(captionTarget('other.en.vtt', videos)).toBeUndefined();
    expect(captionTarget('clip.final.vtt', videos)).toBeUndefined();
    expect(captionTarget('clip.txt', videos)).toBeUndefined();
  });
});
