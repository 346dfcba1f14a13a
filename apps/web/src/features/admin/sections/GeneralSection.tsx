import { Button, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslation } from '../../../lib/translate.tsx';
import { useAdminDraft } from '../AdminDraft.tsx';
import { LanguageTextSettings, required, Section, SelectSetting, SwitchSetting, TextSetting } from '../fields.tsx';
import { useConfigHistory, useRollback } from '../queries.ts';
import { FooterEditor } from './FooterEditor.tsx';

const fileSizeBases = ['1000', '1024'] as const;

export function GeneralSection() {
  const { t } = useTranslation();
  const { config, set } = useAdminDraft();
  const g = config.global;
  return (
    <>
      <Section title={t('admin.general.global')}>
        <TextSetting
          label={t('admin.general.website_title')}
          value={g.website_title}
          onChange={set('global.website_title')}
          rules={[required]}
        />
        <SwitchSetting
          label={t('admin.general.hide_empty_metadata_fields')}
          checked={g.hide_empty_metadata_fields}
          onChange={set('global.hide_empty_metadata_fields')}
        />
        <SwitchSetting
          label={t('admin.general.run_order_process')}
          checked={g.run_order_process}
          onChange={set('global.run_order_process')}
        />
        <SelectSetting
          label={t('admin.general.file_size_base')}
          value={String(g.file_size_base) as '1000' | '1024'}
          options={fileSizeBases.map((base) => ({ value: base, label: t(`admin.general.file_size_base_${base}`) }))}
          onChange={(base) => set('global.file_size_base')(Number(base))}
          configKey="global.file_size_base"
        />
      </Section>
      <Section title={t('admin.general.terms_of_use')}>
        <SwitchSetting
          label={t('admin.general.show_terms')}
          checked={config.terms_of_use.show}
          onChange={set('terms_of_use.show')}
        />
        <LanguageTextSettings
          label={t('admin.general.terms_link')}
          languages={config.visibleLocales.map((l) => l.lang)}
          value={(lang) => config.terms_of_use.links[lang] ?? ''}
          onChange={(lang, v) => set(`terms_of_use.links.${lang}`)(v)}
          configKey="terms_of_use.links{}"
        />
      </Section>
      <FooterEditor />
      <Section title={t('admin.general.guide')}>
        <SwitchSetting label={t('admin.general.show_guide')} checked={config.guide.show} onChange={set('guide.show')} />
      </Section>
      <History />
    </>
  );
}

/** Saved versions of the config; restoring one saves it again (admin-spec §4, our history). */
function History() {
  const { t, i18n } = useTranslation();
  const { adopt } = useAdminDraft();
  const history = useConfigHistory();
  const rollback = useRollback();
  const versions = history.data?.versions ?? [];
  return (
    <Section title={t('admin.history.title')}>
      {versions.length === 0 && <Typography>{t('admin.history.empty')}</Typography>}
      <List dense aria-label={t('admin.history.title')}>
        {versions.map((v, index) => {
          const when = new Date(v.saved_at).toLocaleString(i18n.language);
          return (
            <ListItem
              key={v.id}
              secondaryAction={
                index > 0 && (
                  <Button
                    size="small"
                    disabled={rollback.isPending}
                    aria-label={`${t('admin.history.restore')}: ${when}`}
                    onClick={() => rollback.mutate(v.id, { onSuccess: adopt })}
                  >
                    {t('admin.history.restore')}
                  </Button>
                )
              }
            >
              <ListItemText
                primary={when}
                secondary={t(index === 0 ? 'admin.history.current' : 'admin.history.by', { name: v.saved_by })}
              />
            </ListItem>
          );
        })}
      </List>
    </Section>
  );
}
