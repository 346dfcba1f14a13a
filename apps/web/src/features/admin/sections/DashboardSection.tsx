import { Alert, Button } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../../lib/translate.tsx';
import type { PreSearch } from '@vitrine/contract/global-config';
import { toast } from '../../../lib/toast.ts';
import { useAdminDraft } from '../AdminDraft.tsx';
import {
  AlignmentSetting,
  check,
  EntryList,
  FileUpload,
  FormDialog,
  keyRequired,
  LanguageTextSettings,
  NumberSetting,
  Section,
  SelectSetting,
  SwitchSetting,
  TextSetting,
  unique,
  UploadSetting,
} from '../fields.tsx';
import { useIndexFields, useUploadFile } from '../queries.ts';

export function DashboardSection() {
  const { t } = useTranslation();
  const { config, set } = useAdminDraft();
  const [adding, setAdding] = useState(false);
  const collections = config.dashboard.collections;
  return (
    <>
      <Section title={t('admin.dashboard.presearches')}>
        <EntryList
          label={t('admin.dashboard.presearches')}
          entries={collections.data.map((p, index) => ({
            key: p.key,
            primary: p.key,
            secondary: Object.entries(p.search)
              .map(([lang, s]) => `${lang}: ${s.text || '*'}`)
              .join(' · '),
            removeLabel: t('admin.dashboard.remove', { key: p.key }),
            onRemove: () => set('dashboard.collections.data')(collections.data.filter((_, i) => i !== index)),
            children: <TileImage preSearch={p} onChange={set(`dashboard.collections.data.${index}.src`)} />,
          }))}
        />
        <Button variant="outlined" onClick={() => setAdding(true)} sx={{ alignSelf: 'flex-start' }}>
          {t('admin.dashboard.add_presearch')}
        </Button>
      </Section>
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
      {adding && (
        <AddPreSearchDialog
          taken={collections.data.map((p) => p.key)}
          languages={config.visibleLocales.map((l) => l.lang)}
          onClose={() => setAdding(false)}
          onAdd={(preSearch) => {
            set('dashboard.collections.data')([
              ...collections.data,
              { ...preSearch, position: collections.data.length },
            ]);
            setAdding(false);
          }}
        />
      )}
    </>
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
    />
  );
}

/** The add pre-search modal (admin-spec §2, §3 "Pre-search", §5): key, search per language, one filter. */
function AddPreSearchDialog({
  taken,
  languages,
  onClose,
  onAdd,
}: {
  taken: string[];
  languages: string[];
  onClose: () => void;
  onAdd: (preSearch: PreSearch) => void;
}) {
  const { t } = useTranslation();
  const fields = useIndexFields().data ?? [];
  const { facets } = useAdminDraft().config;
  const [key, setKey] = useState('');
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [facet, setFacet] = useState('');
  const [values, setValues] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const keyRules = [keyRequired, unique(taken, 'admin.validation.key_unique')];
  const keyError = check(key, keyRules);
  const valueList = values
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const facetField = fields.find((f) => f.field_name === facet);
  // A configured field that is missing from the index is an error (admin-spec §5).
  const fieldError = facet !== '' && fields.length > 0 && !facetField ? 'admin.dashboard.field_missing' : undefined;
  // The selection type the search page gives the facet: the configured facet's, else the index field's.
  const selection = facets.find((f) => f.field_name === facet)?.options.multivalue ?? facetField?.options?.multivalue;
  const radioError = selection === 'radio' && valueList.length > 1 ? 'admin.dashboard.radio_one_value' : undefined;

  const submit = () => {
    setSubmitted(true);
    if (keyError || fieldError || radioError) {
      if (fieldError) toast.show('toast.presearch.warning', 'warning');
      return;
    }
    const search = Object.fromEntries(
      languages.map((lang) => [
        lang,
        { text: texts[lang] ?? '', facets: facet ? [{ key: facet, values: valueList }] : [] },
      ]),
    );
    onAdd({ key: key.trim(), translation: key.trim(), position: 0, search });
  };

  return (
    <FormDialog id="add-presearch" title={t('admin.dashboard.add_presearch')} onClose={onClose} onSubmit={submit}>
      <TextSetting
        label={t('admin.dashboard.key')}
        value={key}
        onChange={setKey}
        rules={keyRules}
        showErrors={submitted || key !== ''}
      />
      <LanguageTextSettings
        label={t('admin.dashboard.search_text')}
        languages={languages}
        value={(lang) => texts[lang] ?? ''}
        onChange={(lang, v) => setTexts({ ...texts, [lang]: v })}
      />
      <SelectSetting
        label={t('admin.dashboard.filter_field')}
        value={facet}
        options={[
          { value: '', label: t('admin.dashboard.no_filter') },
          ...fields.filter((f) => f.is_facet).map((f) => ({ value: f.field_name, label: f.field_name })),
        ]}
        onChange={setFacet}
      />
      {facet && <TextSetting label={t('admin.dashboard.filter_values')} value={values} onChange={setValues} />}
      {(fieldError ?? radioError) && <Alert severity="error">{t((fieldError ?? radioError) as string)}</Alert>}
    </FormDialog>
  );
}
