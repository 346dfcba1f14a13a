import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useMediaQuery,
  useTheme,
  type AutocompleteRenderInputParams,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { CallAnswer } from '@vitrine/contract/call';
import type { EditOp, editOptionsCall, FieldChange } from '@vitrine/contract/edit';
import { ApiError } from '../../lib/apiClient.ts';
import { useTranslation } from '../../lib/translate.tsx';
import { toast } from '../../lib/toast.ts';
import {
  applyEdit,
  previewEdit,
  refreshAfterEdit,
  resetField,
  useEditAsset,
  useEditOptions,
  useVocabulary,
} from '../../stores/edit.ts';
import { CollectionPicker } from './CollectionPicker.tsx';
import { useFieldLabel } from './fieldLabels.ts';
import { undoWithNotice } from './editNotices.ts';

type EditOptions = CallAnswer<typeof editOptionsCall>;
type EditField = EditOptions['fields'][number];

/** What the editor has put into one field in one content language. */
interface Draft {
  op: EditOp;
  values: string[];
  find: string;
}

const draftKey = (field: string, lang: string) => `${field}\u0000${lang}`;

/** Visibility, collections and the date are edited like fields; a server that does not list them still has them. */
const pseudoFields: EditField[] = [
  { field_name: 'created', type: 'date', multiValued: false, localized: false, vocabulary: false },
  { field_name: 'access_groups', type: 'groups', multiValued: true, localized: false, vocabulary: false },
  { field_name: 'collections', type: 'collections', multiValued: true, localized: false, vocabulary: false },
];

const isMulti = (f: EditField) =>
  f.multiValued || f.type === 'keywords' || f.type === 'groups' || f.type === 'collections';

/** The operations a field offers: lists grow and shrink, texts are set or searched and replaced. */
function opsOf(f: EditField): EditOp[] {
  if (isMulti(f)) return ['set', 'add', 'remove'];
  if (f.type === 'text' || f.type === 'longtext') return ['set', 'replace'];
  return ['set'];
}

const sameValues = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The field a refused edit names: the validation details' path (`changes.2.values`) points at a
 * change, or the path or the message names a field the edit changes.
 */
export function fieldOfError(error: ApiError, changes: readonly FieldChange[]): string | undefined {
  for (const detail of error.body?.details ?? []) {
    const index = /(?:^|\.)changes\.(\d+)/.exec(detail.path)?.[1];
    if (index !== undefined) return changes[Number(index)]?.field;
    const named = changes.find((c) => detail.path === c.field || detail.path.endsWith(`.${c.field}`));
    if (named) return named.field;
  }
  const message = error.body?.message ?? '';
  return changes.find((c) => new RegExp(`\\b${c.field.replace(/[^\w]/g, '\\$&')}\\b`).test(message))?.field;
}

function FieldEditor({
  field,
  label,
  draft,
  onChange,
  start,
  options,
  error,
  note,
  action,
}: {
  field: EditField;
  label: string;
  draft: Draft;
  onChange: (draft: Draft) => void;
  /** The values the field starts with: one asset's own, none for a selection. */
  start: string[];
  options: EditOptions;
  error?: string;
  note?: string;
  /** Beside the note: what may be done about it (an admin's reset to the file's value). */
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  const helpId = useId();
  const [focused, setFocused] = useState(false);
  const vocabulary = useVocabulary(field.field_name, field.vocabulary && focused);
  const ops = opsOf(field);
  const help = error ?? note;
  const described = help ? { 'aria-describedby': helpId } : {};
  const setValues = (values: string[]) => onChange({ ...draft, values });
  const first = draft.values[0] ?? '';

  const opSelect = ops.length > 1 && (
    <TextField
      select
      size="small"
      label={t('edit.op.label', { field: label })}
      value={draft.op}
      onChange={(e) => {
        const op = e.target.value as EditOp;
        // "Set" starts from the values as they are; the others from nothing to add, remove or find.
        onChange({ op, values: op === 'set' ? start : [], find: '' });
      }}
      slotProps={{ select: { native: true } }}
      sx={{ minWidth: 140 }}
    >
      {ops.map((op) => (
        <option key={op} value={op}>
          {t(`edit.op.${op}`)}
        </option>
      ))}
    </TextField>
  );

  // The text field of every autocomplete here: the field's label, error and description.
  const input = (params: AutocompleteRenderInputParams) => (
    <TextField
      {...params}
      label={label}
      error={Boolean(error)}
      slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, ...described } }}
    />
  );
  let control;
  if (field.type === 'groups') {
    control = (
      <FormControl component="fieldset" error={Boolean(error)}>
        <FormLabel component="legend">{label}</FormLabel>
        <FormGroup row>
          {options.groups.map((group) => (
            <FormControlLabel
              key={group}
              label={group}
              control={
                <Checkbox
                  checked={draft.values.includes(group)}
                  onChange={(e) =>
                    setValues(e.target.checked ? [...draft.values, group] : draft.values.filter((g) => g !== group))
                  }
                  slotProps={{ input: described }}
                />
              }
            />
          ))}
        </FormGroup>
      </FormControl>
    );
  } else if (field.type === 'collections') {
    control = (
      <CollectionPicker
        collections={options.collections}
        values={draft.values}
        onChange={setValues}
        renderInput={input}
      />
    );
  } else if (isMulti(field)) {
    control = (
      <Autocomplete
        multiple
        freeSolo
        autoSelect
        options={vocabulary.data ?? []}
        value={draft.values}
        onChange={(_e, value) => setValues(value.map((v) => v.trim()).filter(Boolean))}
        onFocus={() => setFocused(true)}
        renderInput={input}
      />
    );
  } else if (field.type === 'date') {
    control = (
      <TextField
        type="date"
        label={label}
        value={first.slice(0, 10)}
        onChange={(e) => setValues(e.target.value ? [e.target.value] : [])}
        error={Boolean(error)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: described }}
      />
    );
  } else if (draft.op === 'replace') {
    control = (
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          label={t('edit.op.find', { field: label })}
          value={draft.find}
          onChange={(e) => onChange({ ...draft, find: e.target.value })}
          error={Boolean(error)}
          slotProps={{ htmlInput: described }}
          fullWidth
        />
        <TextField
          label={t('edit.op.replace_with')}
          value={first}
          onChange={(e) => setValues([e.target.value])}
          fullWidth
        />
      </Stack>
    );
  } else if (field.vocabulary) {
    control = (
      <Autocomplete
        freeSolo
        options={vocabulary.data ?? []}
        inputValue={first}
        onInputChange={(_e, value) => setValues(value ? [value] : [])}
        onFocus={() => setFocused(true)}
        renderInput={input}
      />
    );
  } else {
    control = (
      <TextField
        label={label}
        type={field.type === 'number' ? 'number' : 'text'}
        multiline={field.type === 'longtext'}
        minRows={field.type === 'longtext' ? 3 : undefined}
        value={first}
        onChange={(e) => setValues(e.target.value === '' ? [] : [e.target.value])}
        error={Boolean(error)}
        slotProps={{ htmlInput: described }}
        fullWidth
      />
    );
  }

  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        {opSelect}
        <Box sx={{ flex: 1, minWidth: 0 }}>{control}</Box>
      </Stack>
      {(help ?? action) && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {help && (
            <FormHelperText id={helpId} error={Boolean(error)}>
              {help}
            </FormHelperText>
          )}
          {action}
        </Stack>
      )}
    </Box>
  );
}

interface Preview {
  assets: number;
  changing: number;
}

/**
 * The edit dialog of one asset (its values as they are now, the fields edited before marked) or of a
 * selection (empty, "add" or "set" per field, and a preview of how many assets change before it
 * saves). A refused save keeps everything entered and says at the field what is wrong.
 */
export function EditDialog({ ids, onClose }: { ids: string[]; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const client = useQueryClient();
  const titleId = useId();
  const single = ids.length === 1;
  const options = useEditOptions();
  const asset = useEditAsset(ids[0] ?? '', single);
  const fieldLabel = useFieldLabel();
  const [chosenLang, setLang] = useState<string>();
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [preview, setPreview] = useState<Preview | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ text: string; severity: 'error' | 'info' } | null>(null);
  const [busy, setBusy] = useState(false);

  const loading = options.isPending || (single && asset.isPending);
  const failed = options.isError || (single && asset.isError);
  const opts = options.data;
  const known = new Set(opts?.fields.map((f) => f.field_name));
  const fields = opts ? [...opts.fields, ...pseudoFields.filter((f) => !known.has(f.field_name))] : [];
  const languages = opts?.languages ?? [];
  // Localised fields start in the caller's own language when the catalogue has it.
  const ownLang = languages.find((l) => l === i18n.language || i18n.language.startsWith(`${l}-`));
  const lang = chosenLang ?? ownLang ?? languages[0] ?? '';
  const langOf = (f: EditField) => (f.localized ? lang : '');

  const labelOf = (f: EditField) => {
    const text = fieldLabel(f.field_name);
    return f.localized && lang ? `${text} (${lang.toUpperCase()})` : text;
  };

  const startOf = (f: EditField, l: string): Draft => ({
    op: single ? 'set' : isMulti(f) ? 'add' : 'set',
    values: single ? (asset.data?.fields[f.field_name]?.[l] ?? []) : [],
    find: '',
  });
  const draftOf = (f: EditField, l: string) => drafts[draftKey(f.field_name, l)] ?? startOf(f, l);

  const setDraft = (f: EditField, l: string, draft: Draft) => {
    setDrafts((d) => ({ ...d, [draftKey(f.field_name, l)]: draft }));
    // What was counted no longer holds.
    setPreview(null);
    setMessage(null);
    setFieldErrors(({ [f.field_name]: _gone, ...rest }) => rest);
  };

  const changes = (): FieldChange[] =>
    fields.flatMap((f) =>
      Object.entries(drafts)
        .filter(([key]) => key.startsWith(`${f.field_name}\u0000`))
        .flatMap(([key, draft]): FieldChange[] => {
          const l = key.slice(f.field_name.length + 1);
          if (draft.op === 'replace') {
            return draft.find
              ? [{ field: f.field_name, lang: l, op: draft.op, values: [draft.values[0] ?? ''], find: draft.find }]
              : [];
          }
          // For a selection an emptied field is no change: clearing a field of many assets takes "remove".
          const unchanged = single
            ? draft.op === 'set' && sameValues(draft.values, startOf(f, l).values)
            : draft.values.length === 0;
          return unchanged ? [] : [{ field: f.field_name, lang: l, op: draft.op, values: draft.values }];
        }),
    );

  const refused = (error: unknown, sent: FieldChange[]) => {
    if (error instanceof ApiError && error.status === 400) {
      const field = fieldOfError(error, sent);
      if (field) {
        setFieldErrors({ [field]: error.message });
        const named = fields.find((f) => f.field_name === field);
        setMessage({
          text: t('edit.error_field', { field: named ? labelOf(named) : field, message: error.message }),
          severity: 'error',
        });
        return;
      }
    }
    setMessage({
      text: error instanceof ApiError ? `${t('edit.error')} ${error.message}` : t('edit.error'),
      severity: 'error',
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const sent = changes();
    if (sent.length === 0) {
      setMessage({ text: t('edit.nothing'), severity: 'info' });
      return;
    }
    setBusy(true);
    setFieldErrors({});
    setMessage(null);
    try {
      if (!single && !preview) {
        const counted = await previewEdit({ ids, changes: sent });
        setPreview({ assets: counted.assets, changing: counted.changing });
        return;
      }
      const answer = await applyEdit({ ids, changes: sent });
      refreshAfterEdit(client);
      onClose();
      const batch = answer.batch;
      if (batch) {
        toast.offer(
          'edit.saved',
          { count: answer.changed },
          { key: 'edit.undo', run: () => undoWithNotice(client, batch.id) },
        );
      } else {
        toast.show('edit.unchanged', 'info', undefined, undefined, true);
      }
    } catch (error) {
      refused(error, sent);
    } finally {
      setBusy(false);
    }
  };

  /**
   * Gives an edited field the file's value again (admins). The dialog stays open with what else was
   * entered; the field starts again from its new values, and the History can undo the reset.
   */
  const reset = async (f: EditField) => {
    setBusy(true);
    setMessage(null);
    try {
      await resetField(ids[0] ?? '', f.field_name);
      refreshAfterEdit(client);
      setDrafts((d) =>
        Object.fromEntries(Object.entries(d).filter(([key]) => !key.startsWith(`${f.field_name}\u0000`))),
      );
      setPreview(null);
      // Every language of the field went back: its name without one.
      setMessage({ text: t('edit.reset_done', { field: fieldLabel(f.field_name) }), severity: 'info' });
    } catch (error) {
      refused(error, []);
    } finally {
      setBusy(false);
    }
  };

  const localized = fields.some((f) => f.localized) && languages.length > 1;
  const title = single
    ? t('edit.title_asset', { name: asset.data?.filename ?? '' })
    : t('edit.title_many', { count: ids.length });

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth fullScreen={phone}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogContent>
          {loading && <CircularProgress aria-label={t('global.loading')} />}
          {failed && <Alert severity="error">{t('edit.load_error')}</Alert>}
          {opts && (!single || asset.data) && (
            <Stack spacing={2.5}>
              {!single && <Typography>{t('edit.intro_many', { count: ids.length })}</Typography>}
              {localized && (
                <ToggleButtonGroup
                  exclusive
                  size="small"
                  value={lang}
                  onChange={(_e, next: string | null) => next && setLang(next)}
                  aria-label={t('edit.language')}
                >
                  {languages.map((l) => (
                    <ToggleButton key={l} value={l} aria-label={t('edit.language_option', { lang: l.toUpperCase() })}>
                      {l.toUpperCase()}
                    </ToggleButton>
                  ))}
                </ToggleButtonGroup>
              )}
              {fields.map((f) => {
                const edited = single ? asset.data?.edited[f.field_name] : undefined;
                const l = langOf(f);
                return (
                  <FieldEditor
                    key={draftKey(f.field_name, l)}
                    field={f}
                    label={labelOf(f)}
                    draft={draftOf(f, l)}
                    onChange={(d) => setDraft(f, l, d)}
                    start={startOf(f, l).values}
                    options={opts}
                    error={fieldErrors[f.field_name]}
                    note={
                      edited
                        ? t('edit.edited', {
                            by: edited.by ?? t('edit.someone'),
                            at: new Date(edited.at).toLocaleString(i18n.language),
                          })
                        : undefined
                    }
                    action={
                      // Admins (who may also remove for good) give an edited field back to the file.
                      edited && opts.canRemove ? (
                        <Button
                          size="small"
                          disabled={busy}
                          aria-label={t('edit.reset_field', { field: fieldLabel(f.field_name) })}
                          onClick={() => void reset(f)}
                        >
                          {t('edit.reset')}
                        </Button>
                      ) : undefined
                    }
                  />
                );
              })}
              {preview && (
                <Alert severity="info">
                  {t('edit.preview_count', { changing: preview.changing, count: preview.assets })}
                </Alert>
              )}
            </Stack>
          )}
          {/* Always there, so a refusal is read out as it appears. */}
          <Box role="alert" sx={{ mt: message ? 2 : 0 }}>
            {message && (
              <Alert severity={message.severity} role="none">
                {message.text}
              </Alert>
            )}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('global.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || !opts}>
            {single || preview ? t('edit.save') : t('edit.preview')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
