import { Alert, Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../../lib/translate.tsx';
import type { PreSearch } from '@vitrine/contract/global-config';
import { toast } from '../../../lib/toast.ts';
import { useAdminDraft } from '../AdminDraft.tsx';
import {
  AddFromSelect,
  AlignmentSetting,
  check,
  EntryList,
  FileUpload,
  FormDialog,
  keyRequired,
  LanguageTextSettings,
  missingFrom,
  moved,
  MoveButtons,
  NumberSetting,
  Section,
  SelectSetting,
  SwitchSetting,
  TextSetting,
  unique,
  UploadSetting,
} from '../fields.tsx';
import { useDamCollections, useIndexFields, useUploadFile } from '../queries.ts';

export function DashboardSection() {
  const { t } = useTranslation();
  const { config, set } = useAdminDraft();
  // The pre-search being edited: its place in the list, or 'new'.
  const [editing, setEditing] = useState<number | 'new'>();
  const collections = config.dashboard.collections;
  // The dashboard shows pre-searches by position; the list shows them so and writes the order back.
  const ordered = [...collections.data].sort((a, b) => a.position - b.position);
  const write = (next: PreSearch[]) =>
    set('dashboard.collections.data')(next.map((p, position) => ({ ...p, position })));
  const fields = useIndexFields().data;
  const missingField = missingFrom(fields);
  return (
    <>
      <Section title={t('admin.dashboard.presearches')}>
        <EntryList
          label={t('admin.dashboard.presearches')}
          entries={ordered.map((p, index) => {
            const missing = [...new Set(Object.values(p.search).flatMap((q) => q.facets.map((f) => f.key)))].filter(
              missingField,
            );
            return {
              key: p.key,
              primary: p.key,
              secondary: Object.entries(p.search)
                .map(([lang, s]) => `${lang}: ${s.text || '*'}`)
                .join(' · '),
              removeLabel: t('admin.dashboard.remove', { key: p.key }),
              onRemove: () => write(ordered.filter((_, i) => i !== index)),
              actions: (
                <>
                  <Button onClick={() => setEditing(index)}>{t('admin.dashboard.edit', { key: p.key })}</Button>
                  <MoveButtons
                    index={index}
                    count={ordered.length}
                    upLabel={t('admin.dashboard.move_up', { key: p.key })}
                    downLabel={t('admin.dashboard.move_down', { key: p.key })}
                    onMove={(by) => write(moved(ordered, index, by))}
                    configKey="dashboard.collections.data[].position"
                  />
                </>
              ),
              children: (
                <>
                  {missing.length > 0 && (
                    <Alert severity="warning">
                      {t('admin.dashboard.fields_missing', { fields: missing.join(', ') })}
                    </Alert>
                  )}
                  <TileImage
                    preSearch={p}
                    onChange={set(`dashboard.collections.data.${collections.data.indexOf(p)}.src`)}
                  />
                </>
              ),
            };
          })}
        />
        <Button variant="outlined" onClick={() => setEditing('new')} sx={{ alignSelf: 'flex-start' }}>
          {t('admin.dashboard.add_presearch')}
        </Button>
      </Section>
      <DamCollections />
      <Section title={t('admin.dashboard.display')}>
        <SwitchSetting
          label={t('admin.dashboard.hide_dashboard')}
          checked={config.global.hide_dashboard}
          onChange={set('global.hide_dashboard')}
        />
        <SwitchSetting
          label={t('admin.dashboard.show_as_tiles')}
          checked={collections.show_as_tiles}
          onChange={set('dashboard.collections.show_as_tiles')}
        />
        <SwitchSetting
          label={t('admin.dashboard.hide_empty_result')}
          checked={collections.hide_empty_result}
          onChange={set('dashboard.collections.hide_empty_result')}
        />
        <NumberSetting
          label={t('admin.dashboard.collection_height')}
          value={collections.height}
          min={50}
          onChange={set('dashboard.collections.height')}
        />
        <NumberSetting
          label={t('admin.dashboard.poster_border_width')}
          value={collections.poster_border_width}
          onChange={set('dashboard.collections.poster_border_width')}
        />
        <NumberSetting
          label={t('admin.dashboard.hero_height')}
          value={config.dashboard.heroImage.height}
          onChange={set('dashboard.heroImage.height')}
        />
        <AlignmentSetting
          label={t('admin.dashboard.hero_alignment')}
          value={config.dashboard.heroImage.alignment}
          onChange={set('dashboard.heroImage.alignment')}
        />
        <UploadSetting name="dashboardHero" accept="image/*" />
        <NumberSetting
          label={t('admin.dashboard.logo_height')}
          value={config.dashboard.heroImage.logo.height}
          onChange={set('dashboard.heroImage.logo.height')}
        />
        <AlignmentSetting
          label={t('admin.dashboard.logo_alignment')}
          value={config.dashboard.heroImage.logo.alignment}
          onChange={set('dashboard.heroImage.logo.alignment')}
        />
        <SwitchSetting
          label={t('admin.dashboard.logo_load_outside')}
          checked={config.dashboard.heroImage.logo.load_outside}
          onChange={set('dashboard.heroImage.logo.load_outside')}
        />
        <UploadSetting name="dashboardLogo" accept="image/*" />
      </Section>
      {editing !== undefined && (
        <PreSearchDialog
          initial={editing === 'new' ? undefined : ordered[editing]}
          taken={ordered.filter((_, i) => i !== editing).map((p) => p.key)}
          languages={config.visibleLocales.map((l) => l.lang)}
          onClose={() => setEditing(undefined)}
          onSave={(preSearch) => {
            write(editing === 'new' ? [...ordered, preSearch] : ordered.map((p, i) => (i === editing ? preSearch : p)));
            setEditing(undefined);
          }}
        />
      )}
    </>
  );
}

/**
 * The DAM collections the dashboard shows after the pre-searches (admin-spec §1 "dashboard"): every
 * one in the order the catalogue made them, or those chosen here, in the order given.
 */
function DamCollections() {
  const { t } = useTranslation();
  const { config, set } = useAdminDraft();
  const dam = config.dashboard.collections.dam;
  const catalogue = useDamCollections();
  const names = new Map((catalogue.data ?? []).map((c) => [c.id, c.name]));
  const write = set('dashboard.collections.dam.ids');
  const nameOf = (id: number) => names.get(id) ?? t('admin.dashboard.dam.gone', { id });
  return (
    <Section title={t('admin.dashboard.dam.title')}>
      <SwitchSetting
        label={t('admin.dashboard.dam.all')}
        checked={dam.all}
        // Switched off, the choice starts from what the dashboard showed: every collection.
        onChange={(all) => {
          if (!all && dam.ids.length === 0) write((catalogue.data ?? []).map((c) => c.id));
          set('dashboard.collections.dam.all')(all);
        }}
        configKey="dashboard.collections.dam.all"
      />
      {catalogue.isError && <Alert severity="error">{t('admin.dashboard.dam.unavailable')}</Alert>}
      {!dam.all && (
        <>
          {dam.ids.length === 0 && <Alert severity="info">{t('admin.dashboard.dam.none')}</Alert>}
          <EntryList
            label={t('admin.dashboard.dam.chosen')}
            entries={dam.ids.map((id, index) => ({
              key: String(id),
              primary: nameOf(id),
              secondary: catalogue.data && !names.has(id) ? t('admin.dashboard.dam.gone_hint') : undefined,
              removeLabel: t('admin.dashboard.dam.remove', { name: nameOf(id) }),
              onRemove: () => write(dam.ids.filter((_, i) => i !== index)),
              actions: (
                <MoveButtons
                  index={index}
                  count={dam.ids.length}
                  upLabel={t('admin.dashboard.dam.move_up', { name: nameOf(id) })}
                  downLabel={t('admin.dashboard.dam.move_down', { name: nameOf(id) })}
                  onMove={(by) => write(moved(dam.ids, index, by))}
                  configKey="dashboard.collections.dam.ids[]"
                />
              ),
            }))}
          />
          <AddFromSelect
            label={t('admin.dashboard.dam.collection')}
            addLabel={t('admin.dashboard.dam.add')}
            options={(catalogue.data ?? [])
              .filter((c) => !dam.ids.includes(c.id))
              .map((c) => ({ value: String(c.id), label: c.name }))}
            onAdd={(id) => write([...dam.ids, Number(id)])}
            configKey="dashboard.collections.dam.ids[]"
          />
        </>
      )}
    </Section>
  );
}

/** A fresh id for a tile image (admin-spec §3 "Pre-search" src): it names the stored file. */
const newTileId = () => `tile_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

/**
 * The tile image of a pre-search (admin-spec §7 image name "thumbnail" with id): saved at once under
 * the pre-search's src, a new one under a fresh id that the draft then carries (saved with the config).
 */
function TileImage({ preSearch, onChange }: { preSearch: PreSearch; onChange: (src: string | undefined) => void }) {
  const { t } = useTranslation();
  const upload = useUploadFile();
  return (
    <FileUpload
      label={t('admin.dashboard.tile_image', { key: preSearch.key })}
      accept="image/*"
      present={preSearch.src !== undefined}
      pending={upload.isPending}
      onFile={(file) => {
        const id = preSearch.src ?? newTileId();
        upload.mutate({ name: 'thumbnail', id, file }, { onSuccess: () => onChange(file ? id : undefined) });
      }}
      configKey="dashboard.collections.data[].src"
    />
  );
}

/** One filter of a pre-search as edited: its field, and per language its values or its range. */
interface FilterDraft {
  key: string;
  values: Record<string, string>;
  from: Record<string, string>;
  to: Record<string, string>;
}

type PreSearchFacet = PreSearch['search'][string]['facets'][number];

/** The filters of a pre-search as rows: each field once, in the order the languages first name them. */
export function filterDrafts(search: PreSearch['search']): FilterDraft[] {
  const drafts: FilterDraft[] = [];
  for (const [lang, query] of Object.entries(search)) {
    for (const facet of query.facets) {
      let draft = drafts.find((d) => d.key === facet.key);
      if (!draft) {
        draft = { key: facet.key, values: {}, from: {}, to: {} };
        drafts.push(draft);
      }
      draft.values[lang] = facet.values.join(', ');
      if (facet.range) {
        draft.from[lang] = facet.range.from;
        draft.to[lang] = facet.range.to;
      }
    }
  }
  return drafts;
}

const valueList = (values: string | undefined) =>
  (values ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** A filter row in one language: values, or a range for a range field; none when nothing is given there. */
export function facetOf(draft: FilterDraft, lang: string, range: boolean): PreSearchFacet | undefined {
  if (draft.key === '') return undefined;
  if (range) {
    const from = (draft.from[lang] ?? '').trim();
    const to = (draft.to[lang] ?? '').trim();
    return from || to ? { key: draft.key, values: [], range: { from, to } } : undefined;
  }
  const values = valueList(draft.values[lang]);
  return values.length > 0 ? { key: draft.key, values } : undefined;
}

/**
 * The add and edit pre-search modal (admin-spec §2, §3 "Pre-search", §5): key, search term and
 * filters per language (values, or from and to for a range field), sort and orientation.
 */
function PreSearchDialog({
  initial,
  taken,
  languages,
  onClose,
  onSave,
}: {
  /** The pre-search edited; a new one without it. */
  initial?: PreSearch;
  taken: string[];
  languages: string[];
  onClose: () => void;
  onSave: (preSearch: PreSearch) => void;
}) {
  const { t } = useTranslation();
  const indexFields = useIndexFields().data;
  const fields = indexFields ?? [];
  const { facets, sorting } = useAdminDraft().config;
  const [key, setKey] = useState(initial?.key ?? '');
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(initial?.search ?? {}).map(([lang, q]) => [lang, q.text])),
  );
  const [filters, setFilters] = useState<FilterDraft[]>(() => filterDrafts(initial?.search ?? {}));
  const [sort, setSort] = useState(initial?.sort ?? '');
  const [orientation, setOrientation] = useState<'asc' | 'desc'>(initial?.orientation ?? 'desc');
  const [submitted, setSubmitted] = useState(false);
  const langs = [...new Set([...languages, ...Object.keys(initial?.search ?? {})])];
  const keyRules = [keyRequired, unique(taken, 'admin.validation.key_unique')];
  const keyError = check(key, keyRules);
  const field = (name: string) => fields.find((f) => f.field_name === name);
  const isRange = (name: string) =>
    facets.find((f) => f.field_name === name)?.range_facet ?? field(name)?.range_facet ?? false;
  // The selection type the search page gives the facet: the configured facet's, else the index field's.
  const selection = (name: string) =>
    facets.find((f) => f.field_name === name)?.options.multivalue ?? field(name)?.options?.multivalue;
  // A configured field that is missing from the index is an error (admin-spec §5).
  const missing = missingFrom(indexFields);
  const radioTooMany = (d: FilterDraft) =>
    selection(d.key) === 'radio' && !isRange(d.key) && langs.some((l) => valueList(d.values[l]).length > 1);
  const fieldError = filters.some((d) => missing(d.key));
  const radioError = filters.some(radioTooMany);
  const update = (index: number, change: (d: FilterDraft) => FilterDraft) =>
    setFilters(filters.map((d, i) => (i === index ? change(d) : d)));
  const sortOptions = [
    { value: '', label: t('admin.dashboard.sort_default') },
    ...sorting.options.map((o) => ({ value: o.key, label: t(o.translation) })),
    // A sort key the portal no longer offers stays as it was until it is changed.
    ...(sort && !sorting.options.some((o) => o.key === sort) ? [{ value: sort, label: sort }] : []),
  ];

  const submit = () => {
    setSubmitted(true);
    if (keyError || fieldError || radioError) {
      if (fieldError) toast.show('toast.presearch.warning', 'warning');
      return;
    }
    const search = Object.fromEntries(
      langs.map((lang) => [
        lang,
        {
          text: texts[lang] ?? '',
          facets: filters.flatMap((d) => facetOf(d, lang, isRange(d.key)) ?? []),
        },
      ]),
    );
    const name = key.trim();
    const { sort: _sort, orientation: _orientation, ...kept } = initial ?? { position: 0 };
    onSave({
      ...kept,
      key: name,
      // A label of its own stays; one that was the key follows the key.
      translation: initial?.translation && initial.translation !== initial.key ? initial.translation : name,
      search,
      ...(sort ? { sort, orientation } : {}),
    });
  };

  return (
    <FormDialog
      id="presearch"
      title={initial ? t('admin.dashboard.edit_presearch', { key: initial.key }) : t('admin.dashboard.add_presearch')}
      submitLabel={initial ? t('admin.confirm.apply') : undefined}
      onClose={onClose}
      onSubmit={submit}
      wide
    >
      <TextSetting
        label={t('admin.dashboard.key')}
        value={key}
        onChange={setKey}
        rules={keyRules}
        showErrors={submitted || key !== ''}
        configKey="dashboard.collections.data[].key"
      />
      <LanguageTextSettings
        label={t('admin.dashboard.search_text')}
        languages={langs}
        value={(lang) => texts[lang] ?? ''}
        onChange={(lang, v) => setTexts({ ...texts, [lang]: v })}
        configKey="dashboard.collections.data[].search{}.text"
      />
      {filters.map((draft, index) => {
        const n = index + 1;
        const range = isRange(draft.key);
        return (
          <Stack
            key={index}
            role="group"
            aria-label={t('admin.dashboard.filter_n', { n })}
            spacing={1}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
          >
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <SelectSetting
                label={t('admin.dashboard.filter_field')}
                value={draft.key}
                options={[
                  { value: '', label: t('admin.dashboard.no_filter') },
                  ...[...new Set([...fields.filter((f) => f.is_facet).map((f) => f.field_name), draft.key])]
                    .filter(Boolean)
                    .map((name) => ({ value: name, label: name })),
                ]}
                onChange={(name) => update(index, (d) => ({ ...d, key: name }))}
                configKey="dashboard.collections.data[].search{}.facets[].key"
              />
              <Button onClick={() => setFilters(filters.filter((_, i) => i !== index))}>
                {t('admin.dashboard.remove_filter', { n })}
              </Button>
            </Stack>
            {draft.key !== '' &&
              langs.map((lang) =>
                range ? (
                  <Stack key={lang} direction="row" spacing={1}>
                    <TextSetting
                      label={`${t('admin.dashboard.range_from')} (${lang.toUpperCase()})`}
                      value={draft.from[lang] ?? ''}
                      onChange={(v) => update(index, (d) => ({ ...d, from: { ...d.from, [lang]: v } }))}
                      configKey="dashboard.collections.data[].search{}.facets[].range.from"
                    />
                    <TextSetting
                      label={`${t('admin.dashboard.range_to')} (${lang.toUpperCase()})`}
                      value={draft.to[lang] ?? ''}
                      onChange={(v) => update(index, (d) => ({ ...d, to: { ...d.to, [lang]: v } }))}
                      configKey="dashboard.collections.data[].search{}.facets[].range.to"
                    />
                  </Stack>
                ) : (
                  <TextSetting
                    key={lang}
                    label={`${t('admin.dashboard.filter_values')} (${lang.toUpperCase()})`}
                    value={draft.values[lang] ?? ''}
                    onChange={(v) => update(index, (d) => ({ ...d, values: { ...d.values, [lang]: v } }))}
                    configKey="dashboard.collections.data[].search{}.facets[].values[]"
                  />
                ),
              )}
            {missing(draft.key) && <Alert severity="error">{t('admin.dashboard.field_missing')}</Alert>}
            {radioTooMany(draft) && <Alert severity="error">{t('admin.dashboard.radio_one_value')}</Alert>}
          </Stack>
        );
      })}
      <Button
        sx={{ alignSelf: 'flex-start' }}
        onClick={() => setFilters([...filters, { key: '', values: {}, from: {}, to: {} }])}
      >
        {t('admin.dashboard.add_filter')}
      </Button>
      <Stack direction="row" spacing={1}>
        <SelectSetting
          label={t('admin.dashboard.sort')}
          value={sort}
          options={sortOptions}
          onChange={setSort}
          configKey="dashboard.collections.data[].sort"
        />
        {sort && (
          <SelectSetting
            label={t('admin.dashboard.orientation')}
            value={orientation}
            options={[
              { value: 'asc', label: t('views.search.sort.asc') },
              { value: 'desc', label: t('views.search.sort.desc') },
            ]}
            onChange={setOrientation}
            configKey="dashboard.collections.data[].orientation"
          />
        )}
      </Stack>
    </FormDialog>
  );
}
