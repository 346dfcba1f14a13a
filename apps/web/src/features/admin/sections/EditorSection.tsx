import { routeHref } from '@vitrine/contract/paths';
import { Alert, Box, Button, Link, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../../lib/translate.tsx';
import { sanitizeHtml } from '../../../lib/html.ts';
import { useAdminDraft, useDiscardQuestion, useUnsavedFlag } from '../AdminDraft.tsx';
import { Section, TextSetting } from '../fields.tsx';
import { useCustomPage, useCustomPageLocales, useSaveCustomPage, type PageDraft } from '../queries.ts';

/** Custom pages, one per language, with a sanitised live preview (admin-spec §1 "editor"). */
export function EditorSection() {
  const { t } = useTranslation();
  const { config } = useAdminDraft();
  const langs = config.visibleLocales.map((l) => l.lang);
  const [lang, setLang] = useState(langs[0] ?? 'de');
  const switchLanguage = useDiscardQuestion('page');
  const withPage = useCustomPageLocales().data;
  return (
    <Section title={t('admin.editor.pages')}>
      <Tabs
        value={lang}
        onChange={(_e, v: string) => switchLanguage.guard(() => setLang(v))}
        aria-label={t('admin.editor.languages')}
      >
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
      <Box id="page-panel" role="tabpanel" aria-labelledby={`page-tab-${lang}`}>
        <PageEditor key={lang} lang={lang} />
      </Box>
      {switchLanguage.question}
    </Section>
  );
}

function PageEditor({ lang }: { lang: string }) {
  const { t } = useTranslation();
  const page = useCustomPage(lang);
  const save = useSaveCustomPage();
  const [draft, setDraft] = useState<PageDraft | null>(null);
  const stored = page.data ?? null;
  const current = draft ?? stored ?? { heading: '', html: '' };
  const unsaved = draft !== null && JSON.stringify(draft) !== JSON.stringify(stored);
  useUnsavedFlag('page', unsaved);
  if (page.isPending) return <Typography>{t('global.loading')}</Typography>;
  return (
    <Stack spacing={2} sx={{ pt: 2 }}>
      <TextSetting
        label={t('admin.editor.heading')}
        value={current.heading}
        onChange={(heading) => setDraft({ ...current, heading })}
      />
      <TextSetting
        label={t('admin.editor.html')}
        value={current.html}
        onChange={(html) => setDraft({ ...current, html })}
        multiline
      />
      {unsaved && <Alert severity="info">{t('admin.unsaved')}</Alert>}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button
          variant="contained"
          disabled={!unsaved || save.isPending}
          onClick={() => save.mutate({ lang, page: current }, { onSuccess: () => setDraft(null) })}
        >
          {t('admin.editor.save')}
        </Button>
        {stored ? (
          <Link href={routeHref({ page: 'custom' })}>{t('admin.editor.open')}</Link>
        ) : (
          <Typography variant="body2">{t('admin.custom_page_save_first')}</Typography>
        )}
      </Stack>
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
