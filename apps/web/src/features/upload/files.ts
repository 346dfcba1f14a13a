/**
 * The files an editor hands the upload page: chosen (files, or a folder with `webkitdirectory`) or
 * dropped (files and folders, walked through the entries of the drop), each with its path inside the
 * folder it came in; and the checks a file passes before it is sent.
 */

/** A file to upload and its path inside the folder it came in ('' for a file on its own). */
export interface PickedFile {
  file: File;
  relativePath: string;
}

/** Why a file is not sent: a type the import cannot read, too large, or beyond today's amount. */
export type Refusal = { reason: 'type'; extension: string } | { reason: 'size' } | { reason: 'daily' };

/** What the server accepts (edit/options `upload`), and what is left of today's amount now. */
export interface UploadLimits {
  extensions: readonly string[];
  maxFileBytes: number;
  leftTodayBytes: number;
}

/** A file name's extension without the dot, in lower case; '' for none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Why `file` may not be sent, or undefined when it may. */
export function refusalOf(file: File, limits: UploadLimits): Refusal | undefined {
  const extension = extensionOf(file.name);
  if (!limits.extensions.some((allowed) => allowed.toLowerCase() === extension)) return { reason: 'type', extension };
  if (file.size > limits.maxFileBytes) return { reason: 'size' };
  if (file.size > limits.leftTodayBytes) return { reason: 'daily' };
  return undefined;
}

/** The files of a file input; a folder's files (`webkitdirectory`) carry their path inside it. */
export function filesOfInput(list: FileList | null): PickedFile[] {
  return [...(list ?? [])].map((file) => ({ file, relativePath: file.webkitRelativePath || '' }));
}

/** A folder's entries, read to the end: a directory reader answers them in batches. */
async function entriesOf(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

const isFile = (entry: FileSystemEntry): entry is FileSystemFileEntry => entry.isFile;
const isDirectory = (entry: FileSystemEntry): entry is FileSystemDirectoryEntry => entry.isDirectory;

/** The files under an entry of a drop; those of a folder with their path from the dropped folder on. */
async function filesUnder(entry: FileSystemEntry, inFolder: boolean): Promise<PickedFile[]> {
  if (isFile(entry)) {
    const file = await new Promise<File>((resolve, reject) => entry.file(resolve, reject));
    return [{ file, relativePath: inFolder ? entry.fullPath.replace(/^\/+/, '') : '' }];
  }
  if (!isDirectory(entry)) return [];
  const nested = await Promise.all((await entriesOf(entry)).map((child) => filesUnder(child, true)));
  return nested.flat();
}

/**
 * The files of a drop, folders walked. The entries are taken while the drop event runs (the data
 * transfer is emptied once its handler returns); a browser without entries gives the plain files.
 */
export function filesOfDrop(data: DataTransfer): Promise<PickedFile[]> {
  const items = [...data.items].filter((item) => item.kind === 'file');
  const entries = items.map((item) => item.webkitGetAsEntry?.() ?? null).filter((entry) => entry !== null);
  if (entries.length === 0 || entries.length < items.length) return Promise.resolve(filesOfInput(data.files));
  return Promise.all(entries.map((entry) => filesUnder(entry, false))).then((lists) => lists.flat());
}
