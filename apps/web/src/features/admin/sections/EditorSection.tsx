import { routeHref } from '@vitrine/contract/paths';
import { Alert, Box, Button, Link, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../../lib/translate.tsx';
import { sanitizeHtml } from '../../../lib/html.ts';
import { useAdminDraft, useUnsavedFlag } from '../AdminDraft.tsx';
import { Section, TextSetting } from '../fields.tsx';
import { useCustomPage, useCustomPageLocales, useSaveCustomPages, type PageDraft } from '../queries.ts';
import { busy, customPageStatus } from '../status.ts';

/**
 * Custom pages, one per language, with a sanitised live preview (admin-spec §1 "editor"). Each
 * language keeps its draft while the admin goes through the language tabs; saving saves every
 * language's changed page at once, with one notice (singular or plural, admin-spec §8).
 */
export function EditorSection() {
  const { t } = useTranslation();
  const { config } = useAdminDraft();
  const langs = config.visibleLocales.map((l) => l.lang);
  const [lang, setLang] = useState(langs[0] ?? 'de');
  const withPage = useCustomPageLocales().data;
  // Only pages that differ from the stored ones: a page typed back to what is stored is no draft.
  const [drafts, setDrafts] = useState<Record<string, PageDraft>>({});
  const changed = Object.keys(drafts).filter((l) => langs.includes(l));
  useUnsavedFlag('page', changed.length > 0);
  const save = useSaveCustomPages();
  // The shown language's page status (admin-spec §4), told on its panel.
  const pageStatus = customPageStatus(useCustomPage(lang));
  const saveAll = () =>
    save.mutate(
      changed.map((l) => ({ lang: l, page: drafts[l]! })),
      {
        onSuccess: (saved) =>
          setDrafts((had) => Object.fromEntries(Object.entries(had).filter(([l]) => !saved.includes(l)))),
      },
    );
  return (
    <Section title={t('admin.editor.pages')}>
      <Tabs value={lang} onChange={(_e, v: string) => setLang(v)} aria-label={t('admin.editor.languages')}>
        {langs.map((l) => (
          <Tab
            key={l}
            value={l}
            // A language without a page says so once the locales are known.
            label={
              withPage && !withPage.includes(l) ? t('admin.editor.no_page', { lang: l.toUpperCase() }) : l.toUpperCase()
            }
            id={`page-tab-${l}`}
            aria-controls="page-panel"
          />
        ))}
      </Tabs>
      <Box
        id="page-panel"
        role="tabpanel"
        aria-labelledby={`page-tab-${lang}`}
        data-status={pageStatus}
        aria-busy={busy(pageStatus)}
      >
        <PageEditor
          key={lang}
          lang={lang}
          draft={drafts[lang] ?? null}
          onDraft={(draft) =>
            setDrafts(({ [lang]: _old, ...others }) => (draft === null ? others : { ...others, [lang]: draft }))
          }
        />
      </Box>
      {changed.length > 0 && <Alert severity="info">{t('admin.unsaved')}</Alert>}
      <Box>
        <Button variant="contained" disabled={changed.length === 0 || save.isPending} onClick={saveAll}>
          {t(changed.length > 1 ? 'admin.editor.save_plural' : 'admin.editor.save')}
        </Button>
      </Box>
    </Section>
  );
}

function PageEditor({
  lang,
  draft,
  onDraft,
}: {
  lang: string;
  draft: PageDraft | null;
  /** A changed page, or null when it is the stored one again. */
  onDraft: (draft: PageDraft | null) => void;
}) {
  const { t } = useTranslation();
  const page = useCustomPage(lang);
  const stored = page.data ?? null;
  const current = draft ?? stored ?? { heading: '', html: '' };
  const edit = (next: PageDraft) =>
    onDraft(JSON.stringify(next) === JSON.stringify(stored ?? { heading: '', html: '' }) ? null : next);
  const status = customPageStatus(page);
  if (status !== 'success') {
    return (
      <Box sx={{ pt: 2, pb: 2 }}>
        {page.isError ? (
          <Alert severity="error">{t('admin.editor.page_error')}</Alert>
        ) : (
          <Typography>{t('global.loading')}</Typography>
        )}
      </Box>
    );
  }
  return (
    <Stack spacing={2} sx={{ pt: 2, pb: 2 }}>
      <TextSetting
        label={t('admin.editor.heading')}
        value={current.heading}
        onChange={(heading) => edit({ ...current, heading })}
      />
      <TextSetting
        label={t('admin.editor.html')}
        value={current.html}
        onChange={(html) => edit({ ...current, html })}
        multiline
      />
      {stored ? (
        <Link href={routeHref({ page: 'custom' })}>{t('admin.editor.open')}</Link>
      ) : (
        <Typography variant="body2">{t('admin.custom_page_save_first')}</Typography>
      )}
      <Typography component="h4" variant="subtitle1">
        {t('admin.editor.preview')}
      </Typography>
      <Box
        role="region"
        aria-label={t('admin.editor.preview')}
        sx={{ border: 1, borderColor: 'divider', p: 2 }}
        // The preview shows what the portal will show: the page without scripts and handlers.
        dangerouslySetInnerHTML={{ __html: sanitizeHtml(current.html) }}
      />
    </Stack>
  );
}
