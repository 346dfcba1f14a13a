import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  IconButton,
  InputLabel,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Select,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import type { ConfigFileName } from '@vitrine/contract/config';
import { useAvailableFiles } from '../../stores/config.ts';
import { useUploadFile } from './queries.ts';
import type { IndexField } from '@vitrine/contract/search';
import type { ConfigKey } from '@vitrine/contract/config-keys';
import { configMarker } from './configMarker.ts';

/** A rule answers true when satisfied, else the text key of its message (admin-spec §5). */
export type Rule = (value: string) => true | string;

export const required: Rule = (v) => v.trim() !== '' || 'global.required';
/** Keys of pre-searches, themes and texts (admin-spec §5). */
export const keyRequired: Rule = (v) => v.trim() !== '' || 'admin.validation.key_required';
export const unique =
  (taken: readonly string[], message: string): Rule =>
  (v) =>
    !taken.includes(v.trim()) || message;

/** The first message of the rules a value breaks, or undefined when it satisfies them all. */
export function check(value: string, rules: readonly Rule[]): string | undefined {
  for (const rule of rules) {
    const result = rule(value);
    if (result !== true) return result;
  }
  return undefined;
}

/** A copy of the config with one value replaced, by dot path ("global.website_title"). */
export function setAt<T>(root: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const node = (root ?? {}) as Record<string, unknown>;
  const copy = (Array.isArray(node) ? [...(node as unknown[])] : { ...node }) as Record<string, unknown>;
  copy[head] = rest.length === 0 ? value : setAt(node[head], rest.join('.'), value);
  return copy as T;
}

/** A copy of `list` with the entry at `from` moved to the place `to`. */
export function movedTo<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [entry] = next.splice(from, 1);
  if (entry !== undefined) next.splice(to, 0, entry);
  return next;
}

/** A copy of `list` with the entry at `index` moved one place up (-1) or down (1). */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  return movedTo(list, index, index + by);
}

/**
 * Reordering a list with the pointer by native drag and drop, beside its Move buttons (the way for
 * the keyboard and assistive technology): `handle(place)` goes on an entry's drag handle,
 * `target(place)` on the entry; dropping one entry on another calls `onMove(from, to)`. The entry a
 * drag is over carries `data-drag-over`.
 */
export function useDragOrder(onMove: (from: number, to: number) => void) {
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const end = () => {
    setDragged(null);
    setOver(null);
  };
  return {
    handle: (place: number) => ({
      draggable: true,
      onDragStart: (e: DragEvent<HTMLElement>) => {
        setDragged(place);
        e.dataTransfer.effectAllowed = 'move';
        // Firefox starts a drag only with data; the picture dragged is the whole entry.
        e.dataTransfer.setData('text/plain', String(place));
        const entry = e.currentTarget.closest('[data-drag-target]');
        if (entry) e.dataTransfer.setDragImage(entry, 0, 0);
      },
      onDragEnd: end,
    }),
    target: (place: number) => ({
      'data-drag-target': '',
      'data-drag-over': dragged !== null && over === place && dragged !== place ? '' : undefined,
      onDragOver: (e: DragEvent<HTMLElement>) => {
        if (dragged === null) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setOver(place);
      },
      onDrop: (e: DragEvent<HTMLElement>) => {
        e.preventDefault();
        if (dragged !== null && dragged !== place) onMove(dragged, place);
        end();
      },
    }),
  };
}

/**
 * The grip an entry is dragged by. Hidden from assistive technology and not focusable: the Move
 * buttons do the same for the keyboard; `label` names it for the pointer (its tooltip).
 */
export function DragHandle({
  label,
  ...handle
}: { label: string } & ReturnType<ReturnType<typeof useDragOrder>['handle']>) {
  return (
    <Box
      component="span"
      aria-hidden
      title={label}
      {...handle}
      sx={{ cursor: 'grab', px: 0.5, color: 'text.secondary', userSelect: 'none', fontSize: '1.25rem' }}
    >
      ⠿
    </Box>
  );
}

/**
 * Whether a configured field name is one the index does not have (admin-spec §5: flagged as an
 * error). Nothing is missing while the index fields are not known yet.
 */
export function missingFrom(fields: readonly IndexField[] | undefined): (name: string) => boolean {
  if (!fields) return () => false;
  const known = new Set(fields.map((f) => f.field_name));
  return (name) => name.trim() !== '' && !known.has(name.trim());
}

/**
 * The ↑ and ↓ buttons of an entry at `index` in a list of `count`: `onMove` gets the list order
 * moved one place up (-1) or down (1); the first cannot go up, the last not down.
 */
export function MoveButtons({
  index,
  count,
  upLabel,
  downLabel,
  onMove,
  configKey,
}: {
  index: number;
  count: number;
  upLabel: string;
  downLabel: string;
  onMove: (by: -1 | 1) => void;
  /** The key the order is written to (an entry's position), where it has one. */
  configKey?: ConfigKey;
}) {
  const marker = configMarker(undefined, configKey);
  return (
    <>
      <IconButton aria-label={upLabel} disabled={index === 0} onClick={() => onMove(-1)} {...marker}>
        ↑
      </IconButton>
      <IconButton aria-label={downLabel} disabled={index === count - 1} onClick={() => onMove(1)} {...marker}>
        ↓
      </IconButton>
    </>
  );
}

/** A titled group of settings; named by its heading, so assistive technology lists it as a region. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id} sx={{ mb: 4 }}>
      <Typography component="h3" variant="h6" id={id} sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Stack spacing={2} sx={{ maxWidth: 640 }}>
        {children}
      </Stack>
    </Box>
  );
}

/**
 * A text field checked against its rules. In a modal the messages wait for the first submit
 * (`showErrors`); the hint (a text key) shows while there is no message.
 */
export function TextSetting({
  label,
  value,
  onChange,
  rules = [],
  showErrors = true,
  required: isRequired = rules.includes(required),
  hint,
  multiline,
  configKey,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  configKey?: ConfigKey;
  rules?: readonly Rule[];
  showErrors?: boolean;
  required?: boolean;
  hint?: string;
  multiline?: boolean;
}) {
  const { t } = useTranslation();
  const error = showErrors ? check(value, rules) : undefined;
  const helper = error ?? hint;
  return (
    <TextField
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      required={isRequired}
      error={error !== undefined}
      helperText={helper ? t(helper) : undefined}
      multiline={multiline}
      minRows={multiline ? 3 : undefined}
      size="small"
      {...configMarker(onChange, configKey)}
    />
  );
}

/**
 * A whole number of at least `min`. While the admin types, the field may hold what is not a number
 * yet (empty after clearing it); the config takes each number typed, and the field shows the
 * config's value again when it loses focus.
 */
export function NumberSetting({
  label,
  value,
  onChange,
  min = 0,
  max = Number.POSITIVE_INFINITY,
  configKey,
}: {
  configKey?: ConfigKey;
  label: string;
  value: number;
  onChange: (value: number) => void;
  min?: number;
  max?: number;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <TextField
      label={label}
      type="number"
      value={typed ?? String(value)}
      onChange={(e) => {
        setTyped(e.target.value);
        const n = Number(e.target.value);
        if (e.target.value.trim() !== '' && Number.isFinite(n)) onChange(Math.min(max, Math.max(min, n)));
      }}
      onBlur={() => setTyped(null)}
      slotProps={{ htmlInput: { min, ...(Number.isFinite(max) ? { max } : {}) } }}
      size="small"
      {...configMarker(onChange, configKey)}
    />
  );
}

export function SwitchSetting({
  label,
  checked,
  onChange,
  disabled = false,
  configKey,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  configKey?: ConfigKey;
}) {
  return (
    <FormControlLabel
      {...configMarker(onChange, configKey)}
      control={<Switch checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />}
      label={label}
    />
  );
}

export function SelectSetting<V extends string>({
  label,
  value,
  options,
  onChange,
  configKey,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  configKey?: ConfigKey;
}) {
  const id = useId();
  // An empty choice ('' with a label of its own) is shown like any other.
  const empty = options.some((o) => o.value === '');
  return (
    <FormControl size="small" {...configMarker(onChange, configKey)}>
      <InputLabel id={id} shrink={empty || undefined}>
        {label}
      </InputLabel>
      <Select
        labelId={id}
        label={label}
        value={value}
        displayEmpty={empty}
        notched={empty || undefined}
        onChange={(e) => onChange(e.target.value as V)}
      >
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

type Alignment = 'left' | 'center' | 'right';

/** Where a logo or picture sits: left, centre or right. */
export function AlignmentSetting({
  label,
  value,
  onChange,
}: {
  label: string;
  value: Alignment;
  onChange: (value: Alignment) => void;
}) {
  const { t } = useTranslation();
  return (
    <SelectSetting<Alignment>
      label={label}
      value={value}
      options={(['left', 'center', 'right'] as const).map((v) => ({ value: v, label: t(`admin.align.${v}`) }))}
      onChange={onChange}
    />
  );
}

/** One text per language (links, search terms), each labelled with its language code. */
export function LanguageTextSettings({
  label,
  languages,
  value,
  onChange,
  configKey,
}: {
  label: string;
  languages: readonly string[];
  value: (lang: string) => string;
  onChange: (lang: string, value: string) => void;
  configKey?: ConfigKey;
}) {
  return (
    <>
      {languages.map((lang) => (
        <TextSetting
          key={lang}
          label={`${label} (${lang.toUpperCase()})`}
          value={value(lang)}
          onChange={(v) => onChange(lang, v)}
          configKey={configKey}
        />
      ))}
    </>
  );
}

export interface ListEntry {
  key: string;
  primary: string;
  secondary?: string;
  /** The remove button's accessible name; without it the entry cannot be removed. */
  removeLabel?: string;
  onRemove?: () => void;
  /** Buttons shown before the remove button (edit, move). */
  actions?: ReactNode;
  /** Settings of the entry shown below its text. */
  children?: ReactNode;
}

/** A named list of entries (pre-searches, languages), each with its buttons. */
export function EntryList({ label, entries }: { label: string; entries: readonly ListEntry[] }) {
  return (
    <List dense aria-label={label}>
      {entries.map((entry) => (
        <ListItem
          key={entry.key}
          secondaryAction={
            <>
              {entry.actions}
              {entry.removeLabel && entry.onRemove && (
                <IconButton aria-label={entry.removeLabel} onClick={entry.onRemove}>
                  ×
                </IconButton>
              )}
            </>
          }
          // Room for the buttons beside the entry's text.
          sx={entry.actions ? { pr: 22 } : undefined}
        >
          <Stack spacing={1} sx={{ width: '100%' }}>
            <ListItemText primary={entry.primary} secondary={entry.secondary} />
            {entry.children}
          </Stack>
        </ListItem>
      ))}
    </List>
  );
}

/** Choose one of `options` and add it (a facet field, a suggestion field). */
export function AddFromSelect({
  label,
  addLabel,
  options,
  onAdd,
  children,
  configKey,
}: {
  label: string;
  addLabel: string;
  options: readonly { value: string; label: string }[];
  onAdd: (value: string) => void;
  /** The key of the new entry that the choice sets (its field). */
  configKey?: ConfigKey;
  /** Further buttons beside the add button. */
  children?: ReactNode;
}) {
  const [chosen, setChosen] = useState('');
  return (
    <Stack direction="row" spacing={1}>
      <SelectSetting
        label={label}
        value={chosen}
        options={[{ value: '', label: '—' }, ...options]}
        onChange={setChosen}
        configKey={configKey}
      />
      <Button
        disabled={!chosen}
        onClick={() => {
          onAdd(chosen);
          setChosen('');
        }}
      >
        {addLabel}
      </Button>
      {children}
    </Stack>
  );
}

/** Files whose change the portal shows only after a reload (admin-spec §4). */
const afterReload = new Set<ConfigFileName>(['logo', 'favicon', 'custom_font']);

/** Upload or delete one admin file; saved at once, independent of the config draft. */
export function UploadSetting({ name, accept }: { name: ConfigFileName; accept: string }) {
  const { t } = useTranslation();
  const present = useAvailableFiles()[name];
  const upload = useUploadFile();
  return (
    <FileUpload
      label={t(`admin.files.${name}`)}
      accept={accept}
      present={present}
      pending={upload.isPending}
      onFile={(file) => upload.mutate({ name, file })}
      afterReload={afterReload.has(name)}
    />
  );
}

/** A file's row: its label, whether one is stored, an upload button (opening the file chooser) and delete. */
export function FileUpload({
  label,
  accept,
  present,
  pending,
  onFile,
  afterReload: noteReload = false,
  configKey,
}: {
  configKey?: ConfigKey;
  label: string;
  accept: string;
  present: boolean;
  pending: boolean;
  /** A chosen file, or null to delete the stored one. */
  onFile: (file: File | null) => void;
  afterReload?: boolean;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography sx={{ minWidth: 160 }}>{label}</Typography>
      <Typography variant="body2" sx={{ minWidth: 100 }}>
        {t(present ? 'admin.files.present' : 'admin.files.absent')}
      </Typography>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept}
        aria-label={label}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = '';
        }}
      />
      <Button
        variant="outlined"
        size="small"
        disabled={pending}
        aria-label={`${label}: ${t('admin.files.upload')}`}
        onClick={() => input.current?.click()}
        {...configMarker(onFile, configKey)}
      >
        {t('admin.files.upload')}
      </Button>
      {present && (
        <Button size="small" aria-label={`${label}: ${t('admin.files.delete')}`} onClick={() => onFile(null)}>
          {t('admin.files.delete')}
        </Button>
      )}
      {noteReload && (
        <Typography variant="caption" sx={{ width: '100%' }}>
          {t('admin.files.after_reload')}
        </Typography>
      )}
    </Stack>
  );
}

/** The admin area's modals (add language, add pre-search, add translation, theme colours). */
export function FormDialog({
  id,
  title,
  submitLabel,
  submitDisabled,
  onClose,
  onSubmit,
  wide,
  children,
}: {
  id: string;
  title: string;
  /** "Add" unless told otherwise. */
  submitLabel?: string;
  submitDisabled?: boolean;
  onClose: () => void;
  onSubmit: () => void;
  wide?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} aria-labelledby={`${id}-title`} maxWidth={wide ? 'md' : 'sm'} fullWidth>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {children}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('admin.confirm.cancel')}</Button>
        <Button variant="contained" disabled={submitDisabled} onClick={onSubmit}>
          {submitLabel ?? t('admin.confirm.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
