import { Alert, Box, Button, IconButton, LinearProgress, Link, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { routeHref } from '@vitrine/contract/paths';
import { PageHeading } from '../../components/PageHeading.tsx';
import { IconTooltip } from '../../components/IconTooltip.tsx';
import { CloseIcon, FolderIcon, PauseIcon, PlayIcon, UploadIcon } from '../../components/icons.tsx';
import { VISUALLY_HIDDEN } from '../../components/visuallyHidden.ts';
import { useTranslation } from '../../lib/translate.tsx';
import { useValueText } from '../../stores/fieldText.ts';
import { filesOfDrop, filesOfInput, type PickedFile, type Refusal } from './files.ts';
import { useCreateCollection, useEditOptions } from '../../stores/edit.ts';
import {
  forgetUnfinished,
  isPending,
  unfinishedUploads,
  uploads,
  useUploads,
  type UnfinishedUpload,
  type UploadItem,
} from './uploads.ts';

type Translate = ReturnType<typeof useTranslation>['t'];

const nameOf = (item: Pick<UploadItem, 'file' | 'relativePath'>) => item.relativePath || item.file.name;
const percentOf = (sent: number, total: number) => (total > 0 ? Math.floor((sent / total) * 100) : 0);

function refusalText(t: Translate, refusal: Refusal, size: (bytes: number) => string, maxFileBytes: number): string {
  switch (refusal.reason) {
    case 'type':
      return refusal.extension
        ? t('upload.refused.type', { extension: refusal.extension })
        : t('upload.refused.no_extension');
    case 'size':
      return t('upload.refused.size', { max: size(maxFileBytes) });
    case 'daily':
      return t('upload.refused.daily');
  }
}

function failureText(t: Translate, failure: NonNullable<UploadItem['failure']>): string {
  if (failure === 'network') return t('upload.failed.network');
  return failure.message ?? t('upload.failed.status', { status: failure.status });
}

/** What a screen reader hears when a file finishes, fails or is refused. */
function announcementText(t: Translate, item: UploadItem, explain: (item: UploadItem) => string): string {
  const name = nameOf(item);
  if (item.state === 'done') return t('upload.announce.done', { name });
  return t('upload.announce.not_done', { name, reason: explain(item) });
}

/** One file of the list: its progress, what became of it, and its pause, resume or retry button. */
function FileRow({ item, explain }: { item: UploadItem; explain: (item: UploadItem) => string }) {
  const { t } = useTranslation();
  const valueText = useValueText();
  const size = (bytes: number) => valueText(bytes, 'filesize');
  const name = nameOf(item);
  const percent = percentOf(item.sent, item.file.size);
  const bytes = t('upload.bytes', { sent: size(item.sent), total: size(item.file.size) });
  const action =
    item.state === 'uploading' || item.state === 'waiting'
      ? { label: t('upload.pause', { name }), icon: <PauseIcon />, run: () => uploads.pause(item.id) }
      : item.state === 'paused'
        ? { label: t('upload.resume', { name }), icon: <PlayIcon />, run: () => uploads.resume(item.id) }
        : item.state === 'failed'
          ? { label: t('upload.retry', { name }), icon: <PlayIcon />, run: () => uploads.resume(item.id) }
          : undefined;
  return (
    <Box component="li" sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', listStyle: 'none' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ overflowWrap: 'anywhere' }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary">
            <span>{t(`upload.state.${item.state}`)}</span>
            {item.resumed && <span> · {t('upload.resumed')}</span>}
          </Typography>
          {item.state === 'done' && item.assetId && (
            <Link
              href={routeHref({ page: 'asset', id: item.assetId })}
              variant="body2"
              sx={{ overflowWrap: 'anywhere' }}
            >
              {t('upload.open_asset', { name })}
            </Link>
          )}
        </Box>
        {action && (
          <IconTooltip title={action.label}>
            <IconButton aria-label={action.label} onClick={action.run}>
              {action.icon}
            </IconButton>
          </IconTooltip>
        )}
      </Stack>
      {item.state === 'refused' || item.state === 'failed' ? (
        <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
          {explain(item)}
        </Typography>
      ) : (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5, flexWrap: 'wrap' }}>
          <LinearProgress
            variant="determinate"
            value={percent}
            aria-label={t('upload.file_progress', { name })}
            aria-valuetext={`${percent} % (${bytes})`}
            sx={{ flex: '1 1 160px', height: 8, borderRadius: 1 }}
          />
          <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {percent} % · {bytes}
          </Typography>
        </Stack>
      )}
    </Box>
  );
}

/** Uploads begun before (another visit, a reload) that the browser keeps, each forgettable. */
function UnfinishedList({ entries, onForget }: { entries: UnfinishedUpload[]; onForget: (key: string) => void }) {
  const { t, i18n } = useTranslation();
  const valueText = useValueText();
  if (entries.length === 0) return null;
  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <Box component="section" aria-labelledby="upload-unfinished" sx={{ mt: 3 }}>
      <Typography component="h2" variant="h6" id="upload-unfinished">
        {t('upload.unfinished.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('upload.unfinished.hint')}
      </Typography>
      <Box component="ul" sx={{ p: 0, m: 0 }}>
        {entries.map((entry) => {
          const name = entry.relativePath || entry.filename;
          return (
            <Stack component="li" key={entry.key} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                {t('upload.unfinished.entry', {
                  name,
                  size: entry.size === null ? '?' : valueText(entry.size, 'filesize'),
                  date: date(entry.createdAt),
                })}
              </Typography>
              <IconTooltip title={t('upload.unfinished.forget', { name })}>
                <IconButton aria-label={t('upload.unfinished.forget', { name })} onClick={() => onForget(entry.key)}>
                  <CloseIcon />
                </IconButton>
              </IconTooltip>
            </Stack>
          );
        })}
      </Box>
    </Box>
  );
}

/** The unfinished uploads the browser keeps, less those of files now on the list; read again as the list changes. */
function useUnfinished(items: readonly UploadItem[]) {
  const [entries, setEntries] = useState<UnfinishedUpload[]>([]);
  const states = items.map((item) => item.state).join();
  useEffect(() => {
    let current = true;
    void unfinishedUploads().then((found) => current && setEntries(found));
    return () => {
      current = false;
    };
  }, [states]);
  const listed = new Set(items.filter((item) => item.state !== 'done').map(nameOf));
  const shown = entries.filter((entry) => !listed.has(entry.relativePath || entry.filename));
  const forget = (key: string) => {
    void forgetUnfinished(key).then(() => setEntries((all) => all.filter((entry) => entry.key !== key)));
  };
  return { shown, forget };
}

/** Leaving the page (a reload, closing the tab) while files are on their way asks first. */
function useWarnBeforeLeaving(pending: boolean) {
  useEffect(() => {
    if (!pending) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [pending]);
}

/** The collection the files go into: one of the editor's, or a new one. */
function CollectionPicker({
  collections,
  value,
  onChange,
}: {
  collections: readonly { id: number; name: string; path: string }[];
  value: number | undefined;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateCollection();
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const submit = () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    create.mutate(trimmed, {
      onSuccess: (made) => {
        onChange(made.id);
        setAdding(false);
        setName('');
      },
    });
  };
  const sorted = [...collections].sort((a, b) => (a.path || a.name).localeCompare(b.path || b.name));
  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <TextField
          select
          size="small"
          label={t('upload.collection.label')}
          value={value ?? ''}
          onChange={(e) => e.target.value && onChange(Number(e.target.value))}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 240, maxWidth: '100%' }}
        >
          <option value="">{t('upload.collection.none')}</option>
          {sorted.map((c) => (
            <option key={c.id} value={c.id}>
              {/* Collections made by name (`#name`) show their name; folders their path. */}
              {c.path && !c.path.startsWith('#') ? c.path : c.name}
            </option>
          ))}
        </TextField>
        {!adding && (
          <Button variant="outlined" onClick={() => setAdding(true)}>
            {t('upload.collection.new')}
          </Button>
        )}
      </Stack>
      {adding && (
        <Stack
          component="form"
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mt: 1.5 }}
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <TextField
            size="small"
            label={t('upload.collection.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoFocus
            slotProps={{ htmlInput: { maxLength: 200 } }}
            sx={{ minWidth: 240, maxWidth: '100%' }}
          />
          <Button type="submit" variant="contained" disabled={!name.trim() || create.isPending}>
            {t('upload.collection.create')}
          </Button>
          <Button onClick={() => setAdding(false)}>{t('global.cancel')}</Button>
        </Stack>
      )}
      {create.isError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {create.error.message || t('upload.collection.failed')}
        </Alert>
      )}
    </Box>
  );
}

/**
 * The upload page (issue #49): the editor picks or makes a collection and drops files and folders
 * (or chooses them); files the import cannot read, too large, or beyond what is left of the day's
 * amount are refused at once; the others go to the server through tus, a few at a time, each with
 * its progress and a pause, and continue after a lost connection or a reload.
 */
export function UploadPage() {
  const { t } = useTranslation();
  const valueText = useValueText();
  const size = (bytes: number) => valueText(bytes, 'filesize');
  const options = useEditOptions({ fresh: true });
  const { items, announcement } = useUploads();
  const [collection, setCollection] = useState<number>();
  const [dragging, setDragging] = useState(false);
  const [needsCollection, setNeedsCollection] = useState(false);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const unfinished = useUnfinished(items);
  const pending = items.some(isPending);
  useWarnBeforeLeaving(pending);

  const limits = options.data?.upload;
  const maxFileBytes = limits?.maxFileBytes ?? 0;
  // What the answer's `usedTodayBytes` does not hold yet: the files taken since.
  const taken = items
    .filter((item) => item.state !== 'refused' && (item.state !== 'done' || (item.doneAt ?? 0) > options.dataUpdatedAt))
    .reduce((sum, item) => sum + item.file.size, 0);
  const leftToday = limits ? Math.max(0, limits.maxDailyBytes - limits.usedTodayBytes - taken) : 0;

  const explain = (item: UploadItem) =>
    item.refusal
      ? refusalText(t, item.refusal, size, maxFileBytes)
      : item.failure
        ? failureText(t, item.failure)
        : t(`upload.state.${item.state}`);

  const add = (files: PickedFile[]) => {
    if (!limits || files.length === 0) return;
    if (collection === undefined) {
      setNeedsCollection(true);
      return;
    }
    uploads.add(files, collection, { extensions: limits.extensions, maxFileBytes, leftTodayBytes: leftToday });
  };
  const choose = (input: HTMLInputElement | null) => {
    if (collection === undefined) setNeedsCollection(true);
    else input?.click();
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void filesOfDrop(event.dataTransfer).then(add);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    choose(filesInput.current);
  };

  if (options.isPending) {
    return (
      <Box>
        <PageHeading titleKey="upload.title" />
        <Typography role="status">{t('global.loading')}</Typography>
      </Box>
    );
  }
  if (!options.data) {
    return (
      <Box>
        <PageHeading titleKey="upload.title" />
        <Alert severity="error">{t('upload.options_failed')}</Alert>
      </Box>
    );
  }

  const accepted = items.filter((item) => item.state !== 'refused');
  const total = accepted.reduce((sum, item) => sum + item.file.size, 0);
  const sent = accepted.reduce((sum, item) => sum + item.sent, 0);
  const overall = percentOf(sent, total);
  const done = accepted.filter((item) => item.state === 'done');
  const failed = items.filter((item) => item.state === 'failed' || item.state === 'refused').length;
  const settled = items.length > 0 && !items.some((item) => isPending(item) || item.state === 'paused');
  const doneIn = [...new Set(done.map((item) => item.collection))];
  const collectionName = (id: number) => {
    const c = options.data.collections.find((one) => one.id === id);
    return c ? c.path || c.name : String(id);
  };
  const disabled = collection === undefined;

  return (
    <Box sx={{ maxWidth: 960 }}>
      <PageHeading titleKey="upload.title" />
      <Typography sx={{ mb: 2 }}>{t('upload.intro')}</Typography>
      <CollectionPicker
        collections={options.data.collections}
        value={collection}
        onChange={(id) => {
          setCollection(id);
          setNeedsCollection(false);
        }}
      />
      {needsCollection && disabled && (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {t('upload.collection.first')}
        </Alert>
      )}

      <Box
        role="button"
        tabIndex={0}
        aria-disabled={disabled}
        aria-describedby={hintId}
        onClick={() => choose(filesInput.current)}
        onKeyDown={onKeyDown}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        sx={{
          mt: 2,
          p: { xs: 2, sm: 4 },
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          borderRadius: 2,
          bgcolor: dragging ? 'action.hover' : 'transparent',
          textAlign: 'center',
          cursor: disabled ? 'not-allowed' : 'pointer',
          opacity: disabled ? 0.7 : 1,
          '&:focus-visible': { outline: 3, outlineColor: 'primary.main', outlineOffset: 2 },
        }}
      >
        <UploadIcon fontSize="large" aria-hidden />
        <Typography sx={{ fontWeight: 600 }}>{t('upload.drop.label')}</Typography>
        <Typography variant="body2" id={hintId}>
          {disabled
            ? t('upload.collection.first')
            : t('upload.drop.hint', {
                extensions: options.data.upload.extensions.map((e) => `.${e}`).join(', '),
                max: size(maxFileBytes),
                left: size(leftToday),
              })}
        </Typography>
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="contained" startIcon={<UploadIcon />} onClick={() => choose(filesInput.current)}>
          {t('upload.choose_files')}
        </Button>
        <Button variant="outlined" startIcon={<FolderIcon />} onClick={() => choose(folderInput.current)}>
          {t('upload.choose_folder')}
        </Button>
      </Stack>
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        data-testid="upload-files-input"
        onChange={(e) => {
          add(filesOfInput(e.target.files));
          e.target.value = '';
        }}
      />
      <input
        ref={(element) => {
          folderInput.current = element;
          // Not in React's attribute list: a folder chooser in every browser the portal supports.
          element?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        data-testid="upload-folder-input"
        onChange={(e) => {
          add(filesOfInput(e.target.files));
          e.target.value = '';
        }}
      />
      <Alert severity="info" role="note" sx={{ mt: 2 }}>
        {t('upload.resume_hint')}
      </Alert>

      <UnfinishedList entries={unfinished.shown} onForget={unfinished.forget} />

      {items.length > 0 && (
        <Box component="section" aria-labelledby="upload-files" sx={{ mt: 3 }}>
          <Typography component="h2" variant="h6" id="upload-files">
            {t('upload.files')}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
            <LinearProgress
              variant="determinate"
              value={overall}
              aria-label={t('upload.overall')}
              aria-valuetext={`${overall} % (${t('upload.bytes', { sent: size(sent), total: size(total) })})`}
              sx={{ flex: '1 1 200px', height: 10, borderRadius: 1 }}
            />
            <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {overall} % · {t('upload.bytes', { sent: size(sent), total: size(total) })}
            </Typography>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
            <Button startIcon={<PauseIcon />} disabled={!pending} onClick={() => uploads.pauseAll()}>
              {t('upload.pause_all')}
            </Button>
            <Button
              startIcon={<PlayIcon />}
              disabled={!items.some((item) => item.state === 'paused')}
              onClick={() => uploads.resumeAll()}
            >
              {t('upload.resume_all')}
            </Button>
            <Button disabled={!settled} onClick={() => uploads.clearFinished()}>
              {t('upload.clear')}
            </Button>
          </Stack>
          {settled && (
            <Alert severity={failed > 0 ? 'warning' : 'success'} role="status" sx={{ mt: 2 }}>
              <Typography>{t('upload.summary', { done: done.length, failed })}</Typography>
              {doneIn.map((id) => (
                <Link key={id} href={routeHref({ page: 'search', collection: String(id) })} sx={{ display: 'block' }}>
                  {doneIn.length === 1
                    ? t('upload.show_in_search')
                    : t('upload.show_collection_in_search', { name: collectionName(id) })}
                </Link>
              ))}
            </Alert>
          )}
          <Box component="ul" sx={{ p: 0, m: 0, mt: 1 }}>
            {items.map((item) => (
              <FileRow key={item.id} item={item} explain={explain} />
            ))}
          </Box>
        </Box>
      )}
      <div role="status" aria-live="polite" className={VISUALLY_HIDDEN}>
        {announcement ? announcementText(t, announcement.item, explain) : ''}
      </div>
    </Box>
  );
}
