import { Alert, Button, IconButton, Stack, Typography } from '@mui/material';
import { useTranslation } from '../../../lib/translate.tsx';
import { filterVals, type FilterVal } from '@vitrine/contract/field-format';
import { facetConfigSchema, viewKey, type ViewKey } from '@vitrine/contract/global-config';
import { useAdminDraft } from '../AdminDraft.tsx';
import {
  AddFromSelect,
  AlignmentSetting,
  DragHandle,
  EntryList,
  LanguageTextSettings,
  missingFrom,
  moved,
  movedTo,
  MoveButtons,
  NumberSetting,
  Section,
  SelectSetting,
  SwitchSetting,
  UploadSetting,
  useDragOrder,
} from '../fields.tsx';
import { useIndexFields } from '../queries.ts';

type Multivalue = 'checkbox' | 'radio' | 'slider';
type FacetSort = 'count' | 'alphabetical';
type Orientation = 'asc' | 'desc';
/** The formats a facet's values can be given; '' leaves it to the index field. `other` is `none`. */
const facetFormats = filterVals.filter((v) => v !== 'other');

export function SearchSection() {
  const { t } = useTranslation();
  const { config, set } = useAdminDraft();
  const fields = useIndexFields().data;
  const missing = missingFrom(fields);
  /** Whether the server defines the field as a range; undefined while unknown (admin-spec §5). */
  const rangeOnServer = (name: string) => fields?.find((f) => f.field_name === name)?.range_facet;
  const facetFields = (fields ?? []).filter(
    (f) => f.is_facet && !config.facets.some((c) => c.field_name === f.field_name),
  );
  const suggestionFields = (fields ?? []).filter((f) => !config.suggestions.some((s) => s.field_name === f.field_name));

  // The facets in the order the sidebar shows them (by position); `index` is the place in the config.
  const ordered = config.facets
    .map((facet, index) => ({ facet, index }))
    .sort((a, b) => a.facet.position - b.facet.position);
  const inOrder = ordered.map((o) => o.facet);
  /** Facets in their new order, numbered by it. */
  const viewsInOrder = [...config.search.views.options].sort((a, b) => a.position - b.position);
  const writeViews = (next: typeof viewsInOrder) =>
    set('search.views.options')(next.map((v, position) => ({ ...v, position })));
  const writeFacets = (next: typeof inOrder) => set('facets')(next.map((f, position) => ({ ...f, position })));
  const dragFacets = useDragOrder((from, to) => writeFacets(movedTo(inOrder, from, to)));
  const languages = config.visibleLocales.map((l) => l.lang);

  const addFacet = (name: string) => {
    const field = fields?.find((f) => f.field_name === name);
    if (!field) return;
    const facet = facetConfigSchema.parse({
      field_name: field.field_name,
      position: Math.max(-1, ...config.facets.map((f) => f.position)) + 1,
      range_facet: field.range_facet,
      options: { multivalue: field.range_facet ? 'slider' : 'checkbox' },
    });
    set('facets')([...config.facets, facet]);
  };

  return (
    <>
      <Section title={t('admin.search.facets')}>
        {ordered.map(({ facet, index }, place) => (
          <Stack
            key={facet.field_name}
            direction="row"
            spacing={1}
            sx={{
              alignItems: 'center',
              flexWrap: 'wrap',
              rowGap: 1,
              '&[data-drag-over]': { outline: 2, outlineStyle: 'dashed', outlineColor: 'primary.main' },
            }}
            role="group"
            aria-label={facet.field_name}
            {...dragFacets.target(place)}
          >
            <DragHandle
              label={t('admin.search.drag_facet', { field: facet.field_name })}
              {...dragFacets.handle(place)}
            />
            <Typography sx={{ minWidth: 120 }}>{facet.field_name}</Typography>
            <NumberSetting
              label={t('admin.search.preview')}
              value={facet.options.preview}
              min={1}
              onChange={set(`facets.${index}.options.preview`)}
            />
            <SelectSetting<Multivalue>
              label={t('admin.search.multivalue')}
              value={facet.options.multivalue}
              options={(['checkbox', 'radio', 'slider'] as const).map((v) => ({
                value: v,
                label: t(`admin.search.multivalue_${v}`),
              }))}
              onChange={set(`facets.${index}.options.multivalue`)}
            />
            <SelectSetting<FacetSort>
              label={t('admin.search.facet_sort')}
              value={facet.options.sort}
              options={(['alphabetical', 'count'] as const).map((v) => ({
                value: v,
                label: t(`admin.search.sort_${v}`),
              }))}
              onChange={set(`facets.${index}.options.sort`)}
            />
            <SelectSetting<Orientation>
              label={t('admin.search.facet_sort_orientation')}
              value={facet.options.sort_orientation}
              options={(['asc', 'desc'] as const).map((v) => ({ value: v, label: t(`admin.search.orientation_${v}`) }))}
              onChange={set(`facets.${index}.options.sort_orientation`)}
            />
            <SelectSetting<FilterVal | ''>
              label={t('admin.search.filter_val')}
              value={facet.options.filterVal === 'other' ? 'none' : (facet.options.filterVal ?? '')}
              options={[
                { value: '', label: t('admin.search.filter_val_index') },
                ...facetFormats.map((v) => ({ value: v, label: t(`admin.search.filter_val_${v}`) })),
              ]}
              onChange={(v) => set(`facets.${index}.options.filterVal`)(v === '' ? undefined : v)}
              configKey="facets[].options.filterVal"
            />
            <LanguageTextSettings
              label={t('admin.search.facet_label')}
              languages={languages}
              value={(lang) => facet.labels?.[lang] ?? ''}
              onChange={(lang, v) => set(`facets.${index}.labels.${lang}`)(v)}
              configKey="facets[].labels{}"
            />
            <MoveButtons
              index={place}
              count={ordered.length}
              upLabel={t('admin.search.move_facet_up', { field: facet.field_name })}
              downLabel={t('admin.search.move_facet_down', { field: facet.field_name })}
              onMove={(by) => writeFacets(moved(inOrder, place, by))}
              configKey="facets[].position"
            />
            <IconButton
              aria-label={t('admin.search.remove_facet', { field: facet.field_name })}
              onClick={() => writeFacets(inOrder.filter((_, i) => i !== place))}
            >
              ×
            </IconButton>
            {missing(facet.field_name) && (
              <Alert severity="error" sx={{ width: '100%' }}>
                {t('admin.dashboard.field_missing')}
              </Alert>
            )}
            {/* A slider, and a range facet, need a field the server defines as a range (admin-spec §5). */}
            {(facet.options.multivalue === 'slider' || facet.range_facet) &&
              rangeOnServer(facet.field_name) === false && (
                <Alert severity="warning" sx={{ width: '100%' }}>
                  {t(
                    facet.options.multivalue === 'slider'
                      ? 'admin.search.slider_needs_range'
                      : 'admin.search.range_needs_range',
                  )}
                </Alert>
              )}
            {/* The portal draws a field the server defines as a range as a slider, whatever is chosen. */}
            {facet.options.multivalue !== 'slider' && rangeOnServer(facet.field_name) === true && (
              <Alert severity="warning" sx={{ width: '100%' }}>
                {t('admin.search.range_shown_as_slider')}
              </Alert>
            )}
          </Stack>
        ))}
        <AddFromSelect
          label={t('admin.search.facet_field')}
          addLabel={t('admin.search.add_facet')}
          options={facetFields.map((f) => ({ value: f.field_name, label: f.field_name }))}
          onAdd={addFacet}
          configKey="facets[].field_name"
        />
      </Section>
      <Section title={t('admin.search.suggestions')}>
        {config.suggestions.length === 0 && <Typography>—</Typography>}
        <EntryList
          label={t('admin.search.suggestions')}
          entries={config.suggestions.map((suggestion, index) => ({
            key: suggestion.field_name,
            primary: suggestion.field_name,
            secondary: missing(suggestion.field_name) ? t('admin.dashboard.field_missing') : undefined,
            removeLabel: t('admin.search.remove_suggestion', { field: suggestion.field_name }),
            onRemove: () => set('suggestions')(config.suggestions.filter((_, i) => i !== index)),
          }))}
        />
        <AddFromSelect
          label={t('admin.search.suggestion_field')}
          addLabel={t('admin.search.add_suggestion')}
          options={suggestionFields.map((f) => ({ value: f.field_name, label: f.field_name }))}
          onAdd={(name) => set('suggestions')([...config.suggestions, { field_name: name }])}
          configKey="suggestions[].field_name"
        >
          {config.suggestions.length > 0 && (
            <Button onClick={() => set('suggestions')([])}>{t('admin.search.clear_suggestions')}</Button>
          )}
        </AddFromSelect>
      </Section>
      <Section title={t('admin.search.results')}>
        <SelectSetting<ViewKey>
          label={t('admin.search.default_view')}
          value={config.search.views.default}
          options={viewKey.options.map((v) => ({ value: v, label: t(`views.search.views.${v}`) }))}
          onChange={set('search.views.default')}
        />
        <SelectSetting
          label={t('admin.search.default_sort')}
          value={config.sorting.default}
          options={config.sorting.options.map((o) => ({ value: o.key, label: t(o.translation) }))}
          onChange={set('sorting.default')}
        />
        <SelectSetting<'asc' | 'desc'>
          label={t('admin.search.default_orientation')}
          value={config.sorting.orientation.default}
          options={(['asc', 'desc'] as const).map((v) => ({ value: v, label: t(`admin.search.orientation_${v}`) }))}
          onChange={set('sorting.orientation.default')}
        />
        {config.sorting.options.map((o, index) => (
          <SwitchSetting
            key={o.key}
            label={t('admin.search.sort_offered', { sort: t(o.translation) })}
            checked={o.active}
            // The default sort stays offered.
            disabled={o.key === config.sorting.default}
            onChange={set(`sorting.options.${index}.active`)}
          />
        ))}
        <Stack component="ul" aria-label={t('admin.search.views')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {viewsInOrder.map((view, place) => (
            <Stack component="li" key={view.key} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <SwitchSetting
                label={t('admin.search.view_offered', { view: t(view.translation) })}
                checked={view.visible}
                // The default view stays offered.
                disabled={view.key === config.search.views.default}
                onChange={(visible) => writeViews(viewsInOrder.map((v, i) => (i === place ? { ...v, visible } : v)))}
                configKey="search.views.options[].visible"
              />
              <MoveButtons
                index={place}
                count={viewsInOrder.length}
                upLabel={t('admin.search.move_view_up', { view: t(view.translation) })}
                downLabel={t('admin.search.move_view_down', { view: t(view.translation) })}
                onMove={(by) => writeViews(moved(viewsInOrder, place, by))}
                configKey="search.views.options[].position"
              />
            </Stack>
          ))}
        </Stack>
        <NumberSetting
          label={t('admin.search.sidebar_width')}
          value={config.search.sidebar.width}
          min={80}
          onChange={set('search.sidebar.width')}
        />
        <AlignmentSetting
          label={t('admin.search.logo_alignment')}
          value={config.search.logo.alignment}
          onChange={set('search.logo.alignment')}
        />
        <UploadSetting name="searchLogo" accept="image/*" />
      </Section>
    </>
  );
}
