import path from 'node:path';
import type { AssetGroup } from '@vitrine/contract/fields';

/** What the import knows how to catalogue, by file extension. */
export interface FileType {
  format: string;
  mime: string;
  group: AssetGroup;
}

const types: Record<string, [string, AssetGroup]> = {
  jpg: ['image/jpeg', 'image'],
  jpeg: ['image/jpeg', 'image'],
  png: ['image/png', 'image'],
  gif: ['image/gif', 'image'],
  webp: ['image/webp', 'image'],
  tif: ['image/tiff', 'image'],
  tiff: ['image/tiff', 'image'],
  bmp: ['image/bmp', 'image'],
  tga: ['image/x-tga', 'image'],
  svg: ['image/svg+xml', 'image'],
  avif: ['image/avif', 'image'],
  heic: ['image/heic', 'image'],
  mp4: ['video/mp4', 'video'],
  m4v: ['video/mp4', 'video'],
  mov: ['video/quicktime', 'video'],
  webm: ['video/webm', 'video'],
  mkv: ['video/x-matroska', 'video'],
  mpg: ['video/mpeg', 'video'],
  mpeg: ['video/mpeg', 'video'],
  avi: ['video/x-msvideo', 'video'],
  pdf: ['application/pdf', 'document'],
  wav: ['audio/wav', 'audio'],
  mp3: ['audio/mpeg', 'audio'],
  oga: ['audio/ogg', 'audio'],
  ogg: ['audio/ogg', 'audio'],
  opus: ['audio/ogg', 'audio'],
  flac: ['audio/flac', 'audio'],
  m4a: ['audio/mp4', 'audio'],
  glb: ['model/gltf-binary', '3d'],
  gltf: ['model/gltf+json', '3d'],
  obj: ['model/obj', '3d'],
  stl: ['model/stl', '3d'],
  ply: ['model/ply', '3d'],
  dae: ['model/vnd.collada+xml', '3d'],
};

/** The file name extensions the import reads (without the dot). */
export const importedExtensions: readonly string[] = Object.keys(types);

/** Files that belong to another file (materials of OBJ models), not assets of their own. */
const companions = new Set(['mtl']);

export function fileTypeOf(file: string): FileType | undefined {
  const ext = path.extname(file).slice(1).toLowerCase();
  const t = types[ext];
  return t ? { format: ext === 'jpeg' ? 'jpg' : ext === 'tif' ? 'tiff' : ext, mime: t[0], group: t[1] } : undefined;
}

/** Why the import leaves a file of no known type out (`vitrine import` prints it; an upload is refused with it). */
export function unsupportedTypeReason(file: string): string {
  return `not a supported file type (${path.extname(file) || 'no extension'})`;
}

export function isCompanionFile(file: string): boolean {
  return companions.has(path.extname(file).slice(1).toLowerCase());
}

/** Containers and codecs every current browser plays in a <video> (MP4, WebM; Ogg has no video extension here). */
const browserContainers = new Set(['mp4', 'm4v', 'webm']);
const browserVideoCodecs = new Set(['h264', 'vp8', 'vp9', 'av1']);
const browserAudioCodecs = new Set(['aac', 'mp3', 'opus', 'vorbis', 'flac']);

/** Whether a browser plays a video file itself, so the player may offer the original besides the web MP4. */
export function playsInBrowser(type: FileType, codecs: { videoCodec: string | null; audioCodec: string | null }) {
  return (
    browserContainers.has(type.format) &&
    codecs.videoCodec !== null &&
    browserVideoCodecs.has(codecs.videoCodec) &&
    (codecs.audioCodec === null || browserAudioCodecs.has(codecs.audioCodec))
  );
}
