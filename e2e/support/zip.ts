/**
 * The names of the entries of a zip, read from its central directory (the end record points to it),
 * as an unzip tool lists them. Throws when the bytes are not a whole zip: a missing end record, or a
 * central directory that does not hold the count the end record announces.
 */
export function zipEntryNames(zip: Buffer): string[] {
  // The end record (22 bytes and a comment of at most 65535) is found from the end.
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]), zip.length - 22);
  if (end === -1 || zip.length - end > 22 + 0xffff) throw new Error('not a zip: no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`central directory entry ${i + 1} of ${count} is missing`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    if (zip.readUInt32LE(localHeader) !== 0x04034b50) throw new Error(`entry ${i + 1} has no local header`);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
