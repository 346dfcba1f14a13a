import { Alert, Button, Checkbox, FormControlLabel, Stack, TextField, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/translate.tsx';
import type { MessageSet } from '@vitrine/contract/config';
import { isLanguageCode } from '@vitrine/contract/formats';
import { useAdminDraft, useDiscardQuestion, useUnsavedFlag } from '../AdminDraft.tsx';
import {
  check,
  EntryList,
  FormDialog,
  keyRequired,
  Section,
  SelectSetting,
  setAt,
  SwitchSetting,
  TextSetting,
  unique,
  type Rule,
} from '../fields.tsx';
import { configMarker } from '../configMarker.ts';
import {
  metadataOf,
  textsQuery,
  useContentLocales,
  useIndexFields,
  useKnownLanguages,
  useSaveTexts,
  useTexts,
} from '../queries.ts';
import { busy, translationsStatus } from '../status.ts';
import { toast } from '../../../lib/toast.ts';
import { useQueryClient } from '@tanstack/react-query';

/** Keys of a translation set's metadata group that are not texts to translate (admin-spec §3). */
const SET_DATA_KEYS = new Set(['metadata.version', 'metadata.source_template', 'metadata.allowlist']);

const codeFormat: Rule = (v) => isLanguageCode(v.trim()) || 'admin.validation.code_format';

export function LanguageSection() {
  const { t } = useTranslation();
  const { config, update, set } = useAdminDraft();
  const [adding, setAdding] = useState(false);
  const catalogueLanguages = useContentLocales().data;
  const locales = config.visibleLocales;
  const codes = [...new Set([...locales.map((l) => l.lang), ...config.content_languages])];
  const [editLang, setEditLang] = useState(locales[0]?.lang ?? 'de');
  const switchLanguage = useDiscardQuestion('translations');
  const client = useQueryClient();
  const saveTexts = useSaveTexts('language');
  // A new language's translation set: a copy of the template's texts, saved at once (admin-spec §3
  // "Language" template, metadata.source_template; §4 a notice says whether it worked).
  const startTexts = async (code: string, template: string) => {
    try {
      const texts = template ? await client.fetchQuery(textsQuery(template)) : {};
      saveTexts.mutate({
        lang: code,
        texts: { ...texts, metadata: { ...metadataOf(texts), source_template: template } },
      });
    } catch {
      toast.show('toast.language.error', 'error');
    }
  };

  return (
    <>
      <Section title={t('admin.language.languages')}>
        <EntryList
          label={t('admin.language.languages')}
          entries={codes.map((code) => {
            const locale = locales.find((l) => l.lang === code);
            const content = config.content_languages.includes(code);
            const roles = [
              locale ? t('admin.language.interface') : undefined,
              content ? t('admin.language.content') : undefined,
            ].filter(Boolean);
            // The last interface language and the last content language stay.
            const lastInterface = locale !== undefined && locales.length === 1;
            const lastContent = content && config.content_languages.length === 1;
            return {
              key: code,
              primary: `${locale?.name ?? code} (${code})`,
              secondary: roles.join(', '),
              ...(!lastInterface && !lastContent
                ? {
                    removeLabel: t('admin.language.remove', { code }),
                    onRemove: () =>
                      update((c) => ({
                        ...c,
                        visibleLocales: c.visibleLocales.filter((l) => l.lang !== code),
                        content_languages: c.content_languages.filter((l) => l !== code),
                      })),
                  }
                : {}),
              children: (
                <>
                  <SwitchSetting
                    label={t('admin.language.content_switch', { code })}
                    checked={content}
                    disabled={lastContent}
                    onChange={(on) =>
                      set('content_languages')(
                        on ? [...config.content_languages, code] : config.content_languages.filter((l) => l !== code),
                      )
                    }
                    configKey="content_languages[]"
                  />
                  {content && catalogueLanguages && !catalogueLanguages.includes(code) && (
                    <Alert severity="info">{t('admin.language.no_metadata', { code })}</Alert>
                  )}
                </>
              ),
            };
          })}
        />
        <SelectSetting
          label={t('admin.language.fallback')}
          value={config.fallback_locale}
          options={codes.map((code) => ({
            value: code,
            label: `${locales.find((l) => l.lang === code)?.name ?? code} (${code})`,
          }))}
          onChange={set('fallback_locale')}
        />
        <Button variant="outlined" sx={{ alignSelf: 'flex-start' }} onClick={() => setAdding(true)}>
          {t('admin.language.add')}
        </Button>
      </Section>
      <Section title={t('admin.language.translations')}>
        <SelectSetting
          label={t('admin.language.edit_language')}
          value={editLang}
          options={locales.map((l) => ({ value: l.lang, label: l.name ?? l.lang }))}
          onChange={(lang) => switchLanguage.guard(() => setEditLang(lang))}
        />
        <TranslationEditor key={editLang} lang={editLang} />
        {switchLanguage.question}
      </Section>
      {adding && (
        <AddLanguageDialog
          taken={codes}
          onClose={() => setAdding(false)}
          onAdd={({ name, code, ui, content, template }) => {
            void startTexts(code, template);
            update((c) => {
              let next = c;
              if (ui)
                next = setAt(next, 'visibleLocales', [
                  ...c.visibleLocales,
                  { lang: code, short: code.toUpperCase(), name },
                ]);
              if (content) next = setAt(next, 'content_languages', [...c.content_languages, code]);
              return next;
            });
            setEditLang(code);
            setAdding(false);
          }}
        />
      )}
    </>
  );
}

interface NewLanguage {
  name: string;
  code: string;
  ui: boolean;
  content: boolean;
  /** The language whose texts the new one starts from; none for an empty set. */
  template: string;
}

/** The add-language modal with the rules of admin-spec §5. */
function AddLanguageDialog({
  taken,
  onClose,
  onAdd,
}: {
  taken: string[];
  onClose: () => void;
  onAdd: (language: NewLanguage) => void;
}) {
  const { t, i18n } = useTranslation();
  const { config } = useAdminDraft();
  const known = useKnownLanguages(i18n.language).data;
  const [template, setTemplate] = useState(config.fallback_locale);
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [ui, setUi] = useState(true);
  const [content, setContent] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const nameRules: Rule[] = [(v) => v.trim() !== '' || 'admin.validation.name_required'];
  const codeRules: Rule[] = [
    (v) => v.trim() !== '' || 'admin.validation.code_required',
    unique(taken, 'admin.validation.code_unique'),
    codeFormat,
  ];
  const submit = () => {
    setSubmitted(true);
    if (check(name, nameRules) || check(code, codeRules)) return;
    onAdd({ name: name.trim(), code: code.trim(), ui, content, template });
  };
  return (
    <FormDialog id="add-language" title={t('admin.language.add')} onClose={onClose} onSubmit={submit}>
      <TextSetting
        label={t('admin.language.name')}
        value={name}
        onChange={setName}
        rules={nameRules}
        showErrors={submitted}
        required
        configKey="visibleLocales[].name"
      />
      <TextSetting
        label={t('admin.language.code')}
        value={code}
        onChange={setCode}
        rules={codeRules}
        showErrors={submitted || code !== ''}
        required
        hint="admin.language.code_hint"
        configKey="visibleLocales[].lang"
      />
      <KnownLanguage
        code={code.trim()}
        known={known}
        canUse={name.trim() === ''}
        onUse={(knownName) => setName(knownName)}
      />
      <SelectSetting
        label={t('admin.language.template')}
        value={template}
        options={[
          ...config.visibleLocales.map((l) => ({ value: l.lang, label: `${l.name ?? l.lang} (${l.lang})` })),
          { value: '', label: t('admin.language.template_none') },
        ]}
        onChange={setTemplate}
      />
      <FormControlLabel
        control={<Checkbox checked={ui} onChange={(e) => setUi(e.target.checked)} />}
        label={t('admin.language.interface')}
      />
      <FormControlLabel
        {...configMarker(undefined, 'content_languages[]')}
        control={<Checkbox checked={content} onChange={(e) => setContent(e.target.checked)} />}
        label={t('admin.language.content')}
      />
    </FormDialog>
  );
}

/** The name of the language a typed code stands for (info/all_languages), offered as the new language's name. */
function KnownLanguage({
  code,
  known,
  canUse,
  onUse,
}: {
  code: string;
  known: readonly { code: string; name: string }[] | undefined;
  canUse: boolean;
  onUse: (name: string) => void;
}) {
  const { t } = useTranslation();
  if (!known || !isLanguageCode(code)) return null;
  const language = known.find((l) => l.code === code);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
      <Typography variant="body2">
        {language ? t('admin.language.known', { name: language.name }) : t('admin.language.unknown')}
      </Typography>
      {language && canUse && (
        <Button size="small" onClick={() => onUse(language.name)}>
          {t('admin.language.use_name', { name: language.name })}
        </Button>
      )}
    </Stack>
  );
}

function flatten(set: MessageSet, prefix = ''): [string, string][] {
  return Object.entries(set).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : flatten(v, `${prefix}${k}.`),
  );
}

function unflatten(entries: Iterable<[string, string]>): MessageSet {
  let out: MessageSet = {};
  for (const [key, text] of entries) out = setAt(out, key, text);
  return out;
}

const PAGE = 40;

/** Texts of one language beside their English fallback; saved as that language's set. */
function TranslationEditor({ lang }: { lang: string }) {
  const { t } = useTranslation();
  const english = useTexts('en');
  const target = useTexts(lang);
  const save = useSaveTexts();
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [filter, setFilter] = useState('');
  const [addingKey, setAddingKey] = useState(false);
  const indexFields = useIndexFields().data;
  // Each asset field has a label per language (admin-spec "Translation set"): `metadata.<field>`,
  // offered for every index field, its English label beside it where the English set has none.
  const fallback = useMemo(() => {
    const texts = new Map(flatten(english.data ?? {}));
    for (const f of indexFields ?? []) {
      const key = `metadata.${f.field_name}`;
      if (!texts.has(key)) texts.set(key, f.default_labels.en ?? f.field_name);
    }
    return texts;
  }, [english.data, indexFields]);
  const current = useMemo(() => new Map(flatten(target.data ?? {})), [target.data]);
  const keys = useMemo(
    () =>
      [...new Set([...fallback.keys(), ...current.keys(), ...Object.keys(edits)])]
        // A set's version, template and allow-list are data the admin area keeps, not texts
        // (decision 0265); its content language is a language code, edited here.
        .filter((k) => !SET_DATA_KEYS.has(k))
        .sort(),
    [fallback, current, edits],
  );
  const needle = filter.trim().toLowerCase();
  const shown = keys.filter(
    (k) => !needle || k.toLowerCase().includes(needle) || (fallback.get(k) ?? '').toLowerCase().includes(needle),
  );
  const value = (key: string) => edits[key] ?? current.get(key) ?? '';
  // Told from the loaded copy: a text typed back to what is stored is no change (admin-spec §2, §4).
  const dirty = Object.entries(edits).some(([key, text]) => text !== (current.get(key) ?? ''));
  useUnsavedFlag('translations', dirty);

  const status = translationsStatus([english, target], save.isPending);
  const failed = english.isError || target.isError;
  return (
    <Stack
      spacing={1}
      role="group"
      aria-label={t('admin.language.texts_of', { lang: lang.toUpperCase() })}
      data-status={status}
      aria-busy={busy(status)}
    >
      {status === 'initial' || status === 'loading' ? (
        failed ? (
          <Alert severity="error">{t('admin.language.texts_error')}</Alert>
        ) : (
          <Typography>{t('global.loading')}</Typography>
        )
      ) : (
        <>
          <Stack direction="row" spacing={1}>
            <TextField
              size="small"
              label={t('admin.language.filter')}
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              sx={{ flex: 1 }}
            />
            <Button onClick={() => setAddingKey(true)}>{t('admin.language.add_translation')}</Button>
            <Button
              variant="contained"
              disabled={!dirty || save.isPending}
              onClick={() => {
                const merged = new Map(current);
                for (const [k, v] of Object.entries(edits)) merged.set(k, v);
                save.mutate({ lang, texts: unflatten(merged) }, { onSuccess: () => setEdits({}) });
              }}
            >
              {t('admin.language.save_translations')}
            </Button>
          </Stack>
          <Typography role="status">
            {status === 'saving' ? t('admin.status.saving') : dirty ? t('admin.unsaved') : ''}
          </Typography>
          <Typography variant="body2">
            {t('admin.language.shown', { count: Math.min(shown.length, PAGE), total: shown.length })}
          </Typography>
          {shown.slice(0, PAGE).map((key) => (
            <Stack key={key} direction={{ xs: 'column', md: 'row' }} spacing={1}>
              <TextField
                size="small"
                label={key}
                value={value(key)}
                onChange={(e) => setEdits({ ...edits, [key]: e.target.value })}
                sx={{ flex: 1 }}
              />
              <Typography variant="body2" sx={{ flex: 1, color: 'text.secondary' }}>
                <span lang="en">EN: {fallback.get(key) ?? '—'}</span>
              </Typography>
            </Stack>
          ))}
          {addingKey && (
            <AddTranslationDialog
              taken={keys}
              onClose={() => setAddingKey(false)}
              onAdd={(key, text) => {
                setEdits({ ...edits, [key]: text });
                setFilter(key);
                setAddingKey(false);
              }}
            />
          )}
        </>
      )}
    </Stack>
  );
}

/** The add-translation modal: a new text key with its text. */
function AddTranslationDialog({
  taken,
  onClose,
  onAdd,
}: {
  taken: string[];
  onClose: () => void;
  onAdd: (key: string, text: string) => void;
}) {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const keyRules = [keyRequired, unique(taken, 'admin.validation.key_unique')];
  const submit = () => {
    setSubmitted(true);
    if (!check(key, keyRules)) onAdd(key.trim(), text);
  };
  return (
    <FormDialog id="add-translation" title={t('admin.language.add_translation')} onClose={onClose} onSubmit={submit}>
      <TextSetting
        label={t('admin.language.text_key')}
        value={key}
        onChange={setKey}
        rules={keyRules}
        showErrors={submitted}
      />
      <TextSetting label={t('admin.language.text')} value={text} onChange={setText} />
    </FormDialog>
  );
}
