import { Alert, IconButton, List, ListItem, ListItemText, Stack } from '@mui/material';
import type { ReactNode } from 'react';
import type { IndexField } from '@vitrine/contract/search';
import { useTranslation } from '../../../lib/translate.tsx';
import { useAdminDraft } from '../AdminDraft.tsx';
import {
  AddFromSelect,
  missingFrom,
  moved,
  MoveButtons,
  NumberSetting,
  Section,
  SelectSetting,
  SwitchSetting,
} from '../fields.tsx';
import { keyBelow } from '../configMarker.ts';
import { useIndexFields } from '../queries.ts';

interface FieldRef {
  field_name: string;
  translation?: string;
}

/**
 * One column of fields (the info view's and the asset page's left and right columns): fields of
 * the index in the order shown, moved, removed and added; a field the index no longer has is
 * flagged.
 */
function FieldColumn({
  label,
  value,
  fields,
  onChange,
}: {
  label: string;
  value: readonly FieldRef[];
  fields: readonly IndexField[] | undefined;
  onChange: (value: FieldRef[]) => void;
}) {
  const { t } = useTranslation();
  const missing = missingFrom(fields);
  const offered = (fields ?? []).filter((f) => !value.some((v) => v.field_name === f.field_name));
  return (
    <Stack spacing={1}>
      <List dense aria-label={label} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, py: 0 }}>
        {value.length === 0 && (
          <ListItem>
            <ListItemText secondary={t('admin.fields.none')} />
          </ListItem>
        )}
        {value.map((entry, index) => {
          const field = entry.field_name;
          return (
            <ListItem
              key={field}
              secondaryAction={
                <>
                  <MoveButtons
                    index={index}
                    count={value.length}
                    upLabel={t('admin.fields.move_up', { field, column: label })}
                    downLabel={t('admin.fields.move_down', { field, column: label })}
                    onMove={(by) => onChange(moved(value, index, by))}
                    configKey={keyBelow(onChange, '[].field_name')}
                  />
                  <IconButton
                    aria-label={t('admin.fields.remove', { field, column: label })}
                    onClick={() => onChange(value.filter((_, i) => i !== index))}
                  >
                    ×
                  </IconButton>
                </>
              }
              sx={{ pr: 18 }}
            >
              <ListItemText primary={field} sx={{ overflowWrap: 'anywhere' }} />
              {missing(field) && (
                <Alert severity="error" sx={{ py: 0 }}>
                  {t('admin.dashboard.field_missing')}
                </Alert>
              )}
            </ListItem>
          );
        })}
      </List>
      <AddFromSelect
        label={t('admin.fields.field_for', { column: label })}
        addLabel={t('admin.fields.add', { column: label })}
        options={offered.map((f) => ({ value: f.field_name, label: f.field_name }))}
        onAdd={(field) => onChange([...value, { field_name: field }])}
        configKey={keyBelow(onChange, '[].field_name')}
      />
    </Stack>
  );
}

/** The title field of a view: any field of the index (the one configured stays offered while missing). */
function TitleField({
  label,
  value,
  fields,
  onChange,
}: {
  label: string;
  value: string;
  fields: readonly IndexField[] | undefined;
  onChange: (value: string) => void;
}) {
  const names = [...new Set([value, ...(fields ?? []).map((f) => f.field_name)])];
  return (
    <SelectSetting
      label={label}
      value={value}
      options={names.map((n) => ({ value: n, label: n }))}
      onChange={onChange}
    />
  );
}

/** A view's title field and its left and right columns (`infoView` or `assetInfo`). */
function ViewFields({
  path,
  textKey,
  fields,
  children,
}: {
  path: 'infoView' | 'assetInfo';
  textKey: 'info_view' | 'asset_info';
  fields: readonly IndexField[] | undefined;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { config, set } = useAdminDraft();
  const view = config[path];
  return (
    <Section title={t(`admin.fields.${textKey}`)}>
      <TitleField
        label={t(`admin.fields.${textKey}_title`)}
        value={view.title}
        fields={fields}
        onChange={set(`${path}.title`)}
      />
      {(['Left', 'Right'] as const).map((side) => (
        <FieldColumn
          key={side}
          label={t(`admin.fields.${textKey}_${side.toLowerCase()}`)}
          value={view[`params${side}`]}
          fields={fields}
          onChange={set(`${path}.params${side}`)}
        />
      ))}
      {children}
    </Section>
  );
}

/**
 * The fields of the search page's info view and of the asset page (admin-spec §3 "infoView",
 * "assetInfo"): title field, left and right columns, and the info view's border width; the list
 * view's columns and sizes, the thumbnails' header, body and border, the bookmark card's title and
 * columns.
 */
export function FieldColumnsEditor() {
  const { t } = useTranslation();
  const { config, set } = useAdminDraft();
  const fields = useIndexFields().data;
  return (
    <>
      <ViewFields path="infoView" textKey="info_view" fields={fields}>
        <NumberSetting
          label={t('admin.fields.info_view_border')}
          value={config.infoView.options.border_width}
          onChange={set('infoView.options.border_width')}
        />
      </ViewFields>
      <ViewFields path="assetInfo" textKey="asset_info" fields={fields} />
      <Section title={t('admin.fields.list_view')}>
        <FieldColumn
          label={t('admin.fields.list_columns')}
          value={config.search.list.columns}
          fields={fields}
          onChange={set('search.list.columns')}
        />
        <NumberSetting
          label={t('admin.fields.list_image_width')}
          value={config.search.list.options.imageColWidth}
          min={0}
          onChange={set('search.list.options.imageColWidth')}
        />
        <NumberSetting
          label={t('admin.fields.list_row_height')}
          value={config.search.list.options.rowHeight}
          min={1}
          onChange={set('search.list.options.rowHeight')}
        />
      </Section>
      <Section title={t('admin.fields.thumbnails')}>
        <TitleField
          label={t('admin.fields.thumbnail_header')}
          value={config.search.thumbnails.header}
          fields={fields}
          onChange={set('search.thumbnails.header')}
        />
        <FieldColumn
          label={t('admin.fields.thumbnail_body')}
          value={config.search.thumbnails.body}
          fields={fields}
          onChange={set('search.thumbnails.body')}
        />
        <NumberSetting
          label={t('admin.fields.thumbnail_border')}
          value={config.search.thumbnails.border_width}
          min={0}
          onChange={set('search.thumbnails.border_width')}
        />
        <SwitchSetting
          label={t('admin.fields.thumbnail_icon_hover')}
          checked={config.search.thumbnails.icon_hover}
          onChange={set('search.thumbnails.icon_hover')}
        />
      </Section>
      <Section title={t('admin.fields.bookmark_card')}>
        <TitleField
          label={t('admin.fields.bookmark_title')}
          value={config.bookmark.title}
          fields={fields}
          onChange={set('bookmark.title')}
        />
        <NumberSetting
          label={t('admin.fields.bookmark_columns')}
          value={config.bookmark.columns}
          min={1}
          max={12}
          onChange={set('bookmark.columns')}
        />
      </Section>
    </>
  );
}
