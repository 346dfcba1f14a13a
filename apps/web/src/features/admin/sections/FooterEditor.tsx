import { Box, Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import { useId } from 'react';
import type { FooterEntry } from '@vitrine/contract/global-config';
import { isSafeLink } from '@vitrine/contract/global-config';
import { footerText } from '../../../lib/footer.ts';
import { useTranslation } from '../../../lib/translate.tsx';
import { useAdminDraft } from '../AdminDraft.tsx';
import { moved, Section, SelectSetting, SwitchSetting, TextSetting, type Rule } from '../fields.tsx';
import { configMarker } from '../configMarker.ts';

type FooterLink = FooterEntry['links'][string];
const COLUMNS = ['None', 'Left', 'Center', 'Right'] as const;

/** A link of the direction chosen: a page of the portal starts with /, another website is http(s) or mailto. */
export function footerLinkRule(direction: FooterLink['linkDirection']): Rule {
  return (v) => {
    const link = v.trim();
    if (link === '') return true;
    if (direction === 'Internal')
      return (link.startsWith('/') && isSafeLink(link)) || 'admin.general.footer.internal_rule';
    return (!link.startsWith('/') && !link.startsWith('#') && isSafeLink(link)) || 'admin.general.footer.external_rule';
  };
}

/**
 * The footer's entries (admin-spec §3 "Footer link"): per language the text, whether and where it
 * links (a page of the portal or another website) and its column; entries are added, moved and
 * removed, and their order is their position.
 */
export function FooterEditor() {
  const { t, i18n } = useTranslation();
  const { config, set } = useAdminDraft();
  const languages = config.visibleLocales.map((l) => l.lang);
  const entries = [...config.footer.entries].sort((a, b) => a.position - b.position);
  const title = config.global.website_title;
  const nameOf = (entry: FooterEntry) =>
    footerText(entry, i18n.language, t, title) || t('admin.general.footer.new_entry');

  const write = (next: FooterEntry[]) => set('footer.entries')(next.map((e, position) => ({ ...e, position })));
  const change = (index: number, entry: FooterEntry) => write(entries.map((e, i) => (i === index ? entry : e)));
  const add = () =>
    write([
      ...entries,
      {
        translation: '',
        labels: {},
        is_linkable: true,
        position: entries.length,
        links: Object.fromEntries(
          languages.map((lang) => [lang, { linkDirection: 'External' as const, link: '', column: 'Center' as const }]),
        ),
      },
    ]);

  return (
    <Section title={t('admin.general.footer.title')}>
      <Stack
        component="ol"
        spacing={2}
        aria-label={t('admin.general.footer.entries')}
        sx={{ p: 0, m: 0, listStyle: 'none' }}
      >
        {entries.map((entry, index) => (
          <FooterEntryEditor
            key={`${index}-${entry.translation}`}
            entry={entry}
            name={nameOf(entry)}
            title={title}
            languages={languages}
            first={index === 0}
            last={index === entries.length - 1}
            onChange={(next) => change(index, next)}
            onMove={(by) => write(moved(entries, index, by))}
            onRemove={() => write(entries.filter((_, i) => i !== index))}
          />
        ))}
      </Stack>
      <Box>
        <Button onClick={add}>{t('admin.general.footer.add')}</Button>
      </Box>
    </Section>
  );
}

function FooterEntryEditor({
  entry,
  name,
  title,
  languages,
  first,
  last,
  onChange,
  onMove,
  onRemove,
}: {
  entry: FooterEntry;
  name: string;
  title: string;
  languages: readonly string[];
  first: boolean;
  last: boolean;
  onChange: (entry: FooterEntry) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const heading = useId();
  // The text the entry shows where no text of its own is written (in the admin's language).
  const translated = entry.translation ? footerText({ ...entry, labels: {} }, i18n.language, t, title) : '';
  const linkOf = (lang: string): FooterLink =>
    entry.links[lang] ?? { linkDirection: 'Internal', link: '', column: 'None' };
  const setLink = (lang: string, change: Partial<FooterLink>) =>
    onChange({ ...entry, links: { ...entry.links, [lang]: { ...linkOf(lang), ...change } } });
  return (
    <Box component="li" aria-labelledby={heading} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography id={heading} component="h4" variant="subtitle1" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
          {t('admin.general.footer.entry', { name })}
        </Typography>
        <IconButton
          aria-label={t('admin.general.footer.move_up', { name })}
          disabled={first}
          onClick={() => onMove(-1)}
          {...configMarker(onMove, 'footer.entries[].position')}
        >
          ↑
        </IconButton>
        <IconButton
          aria-label={t('admin.general.footer.move_down', { name })}
          disabled={last}
          onClick={() => onMove(1)}
          {...configMarker(onMove, 'footer.entries[].position')}
        >
          ↓
        </IconButton>
        <IconButton aria-label={t('admin.general.footer.remove', { name })} onClick={onRemove}>
          ×
        </IconButton>
      </Stack>
      <SwitchSetting
        label={t('admin.general.footer.linkable')}
        checked={entry.is_linkable}
        onChange={(is_linkable) => onChange({ ...entry, is_linkable })}
        configKey="footer.entries[].is_linkable"
      />
      {languages.map((lang) => {
        const link = linkOf(lang);
        const suffix = ` (${lang.toUpperCase()})`;
        return (
          <Stack key={lang} spacing={2} sx={{ mt: 2 }} role="group" aria-label={`${name}${suffix}`}>
            <TextField
              size="small"
              label={`${t('admin.general.footer.text')}${suffix}`}
              value={entry.labels?.[lang] ?? ''}
              onChange={(e) => onChange({ ...entry, labels: { ...entry.labels, [lang]: e.target.value } })}
              helperText={translated ? t('admin.general.footer.text_hint', { text: translated }) : undefined}
              slotProps={{ htmlInput: { maxLength: 200 } }}
              {...configMarker(onChange, 'footer.entries[].labels{}')}
            />
            <SelectSetting
              label={`${t('admin.general.footer.column')}${suffix}`}
              value={link.column}
              options={COLUMNS.map((c) => ({ value: c, label: t(`admin.general.footer.column_${c}`) }))}
              onChange={(column) => setLink(lang, { column })}
              configKey="footer.entries[].links{}.column"
            />
            {entry.is_linkable && (
              <>
                <SelectSetting
                  label={`${t('admin.general.footer.link_type')}${suffix}`}
                  value={link.linkDirection}
                  options={[
                    { value: 'Internal', label: t('admin.general.footer.internal') },
                    { value: 'External', label: t('admin.general.footer.external') },
                  ]}
                  onChange={(linkDirection) => setLink(lang, { linkDirection })}
                  configKey="footer.entries[].links{}.linkDirection"
                />
                <TextSetting
                  label={`${t('admin.general.footer.link')}${suffix}`}
                  value={link.link}
                  onChange={(v) => setLink(lang, { link: v })}
                  rules={[footerLinkRule(link.linkDirection)]}
                  configKey="footer.entries[].links{}.link"
                />
              </>
            )}
          </Stack>
        );
      })}
    </Box>
  );
}
