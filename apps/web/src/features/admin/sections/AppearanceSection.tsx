import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../../lib/translate.tsx';
import { defaultThemes } from '@vitrine/contract/config-defaults';
import { isHexColour } from '@vitrine/contract/formats';
import {
  BOOKMARK_CARD_MIN_HEIGHT,
  themeColourKeys,
  type ThemeAppearance,
  type ThemeConfig,
} from '@vitrine/contract/global-config';
import { useAdminDraft } from '../AdminDraft.tsx';
import { useIndexFields } from '../queries.ts';
import { FieldColumnsEditor } from './FieldColumnsEditor.tsx';
import { configMarker } from '../configMarker.ts';
import {
  check,
  missingFrom,
  FormDialog,
  keyRequired,
  NumberSetting,
  required,
  Section,
  SelectSetting,
  SwitchSetting,
  TextSetting,
  unique,
  UploadSetting,
} from '../fields.tsx';

type HoverEffect = ThemeConfig['appearance_options']['button_hover_effect'];
const hoverEffects: readonly HoverEffect[] = ['darken', 'lighten', 'none'];

export function AppearanceSection() {
  const { t } = useTranslation();
  const { config, set } = useAdminDraft();
  const fields = useIndexFields().data;
  const [editing, setEditing] = useState<number | null>(null);
  const [newKey, setNewKey] = useState('');
  const [keyTouched, setKeyTouched] = useState(false);
  const [template, setTemplate] = useState(config.themes.default_light);
  const themes = config.themes.options;
  const themeName = (theme: ThemeConfig) => {
    const name = t(theme.translation);
    return name === theme.translation ? theme.key : name;
  };
  const options = themes.map((th) => ({ value: th.key, label: themeName(th) }));
  // The last-resort alternative text per content language (decision 0267); an emptied one is removed.
  const altTexts = config.accessibility.assets.alt_fallback.options.text ?? {};
  const altLanguages = [...new Set([...config.content_languages, ...Object.keys(altTexts)])];
  const setAltText = (lang: string) => (value: string) => {
    const others = Object.fromEntries(Object.entries(altTexts).filter(([key]) => key !== lang));
    set('accessibility.assets.alt_fallback.options.text')(value ? { ...others, [lang]: value } : others);
  };
  /** The default light and dark themes cannot be deleted: visitors would have none to start with. */
  const inUse = (theme: ThemeConfig) =>
    theme.key === config.themes.default_light || theme.key === config.themes.default_dark;
  const keyRules = [
    keyRequired,
    unique(
      themes.map((th) => th.key),
      'admin.validation.key_unique',
    ),
  ];

  const addTheme = () => {
    setKeyTouched(true);
    if (check(newKey, keyRules)) return;
    // A new theme starts as a copy of the chosen one (its colours, dark flag and hover effects).
    const base = themes.find((th) => th.key === template) ?? defaultThemes[0];
    set('themes.options')([...themes, { ...base, key: newKey.trim(), translation: newKey.trim() }]);
    setNewKey('');
    setKeyTouched(false);
  };

  return (
    <>
      <Section title={t('admin.appearance.themes_title')}>
        <Stack spacing={1}>
          {themes.map((theme, index) => (
            <Stack
              key={theme.key}
              role="group"
              aria-label={themeName(theme)}
              direction="row"
              sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2 }}
            >
              <Box
                aria-hidden
                sx={{
                  width: 32,
                  height: 32,
                  borderRadius: 1,
                  bgcolor: theme.appearance.primary,
                  border: 2,
                  borderColor: theme.appearance.background,
                }}
              />
              <Typography sx={{ minWidth: 120 }}>{themeName(theme)}</Typography>
              <Button size="small" variant="outlined" onClick={() => setEditing(index)}>
                {t('admin.appearance.edit_colours', { theme: themeName(theme) })}
              </Button>
              <SwitchSetting
                label={t('admin.appearance.theme_dark')}
                checked={theme.dark}
                onChange={set(`themes.options.${index}.dark`)}
              />
              {(['button_hover_effect', 'list_hover_effect'] as const).map((effect) => (
                <SelectSetting<HoverEffect>
                  key={effect}
                  label={t(`admin.appearance.${effect}`)}
                  value={theme.appearance_options[effect]}
                  options={hoverEffects.map((v) => ({ value: v, label: t(`admin.appearance.hover_${v}`) }))}
                  onChange={set(`themes.options.${index}.appearance_options.${effect}`)}
                />
              ))}
              {inUse(theme) ? (
                <Typography variant="body2" color="text.secondary">
                  {t('admin.appearance.theme_in_use')}
                </Typography>
              ) : (
                <Button size="small" onClick={() => set('themes.options')(themes.filter((_, i) => i !== index))}>
                  {t('admin.appearance.delete_theme', { theme: themeName(theme) })}
                </Button>
              )}
            </Stack>
          ))}
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextSetting
            label={t('admin.appearance.theme_key')}
            value={newKey}
            onChange={setNewKey}
            rules={keyRules}
            showErrors={keyTouched}
            configKey="themes.options[].key"
          />
          <SelectSetting
            label={t('admin.appearance.theme_template')}
            value={template}
            options={options}
            onChange={setTemplate}
          />
          <Button onClick={addTheme}>{t('admin.appearance.add_theme')}</Button>
        </Stack>
        <SelectSetting
          label={t('admin.appearance.default_light')}
          value={config.themes.default_light}
          options={options}
          onChange={set('themes.default_light')}
        />
        <SelectSetting
          label={t('admin.appearance.default_dark')}
          value={config.themes.default_dark}
          options={options}
          onChange={set('themes.default_dark')}
        />
        <SwitchSetting
          label={t('admin.appearance.show_theme_selection')}
          checked={config.themes.show_theme_selection}
          onChange={set('themes.show_theme_selection')}
        />
      </Section>
      <Section title={t('admin.appearance.files')}>
        <UploadSetting name="logo" accept="image/*" />
        <UploadSetting name="favicon" accept="image/*" />
        <UploadSetting name="custom_font" accept=".woff2,.woff,.otf,.ttf" />
        <UploadSetting name="style" accept=".css,text/css" />
      </Section>
      <Section title={t('admin.appearance.visible_logos')}>
        {config.visibleLogos.map((logo, index) => (
          <SwitchSetting
            key={logo.key}
            label={t(logo.translation)}
            checked={logo.visible}
            onChange={set(`visibleLogos.${index}.visible`)}
          />
        ))}
      </Section>
      <Section title={t('admin.appearance.sizes')}>
        <NumberSetting
          label={t('admin.appearance.thumbnail_height')}
          value={config.search.thumbnails.height}
          min={1}
          onChange={set('search.thumbnails.height')}
        />
        <NumberSetting
          label={t('admin.appearance.thumbnail_width')}
          value={config.search.thumbnails.width}
          min={1}
          onChange={set('search.thumbnails.width')}
        />
        <NumberSetting
          label={t('admin.appearance.poster_min_height')}
          value={config.search.posters.min_height}
          min={1}
          onChange={set('search.posters.min_height')}
        />
        <NumberSetting
          label={t('admin.appearance.poster_max_height')}
          value={config.search.posters.max_height}
          min={1}
          onChange={set('search.posters.max_height')}
        />
        <NumberSetting
          label={t('admin.appearance.poster_border_width')}
          value={config.search.posters.border_width}
          onChange={set('search.posters.border_width')}
        />
        <NumberSetting
          label={t('admin.appearance.bookmark_border_width')}
          value={config.bookmark.options.border_width}
          onChange={set('bookmark.options.border_width')}
        />
        <NumberSetting
          label={t('admin.appearance.bookmark_card_height')}
          value={config.bookmark.options.card_height}
          min={BOOKMARK_CARD_MIN_HEIGHT}
          onChange={set('bookmark.options.card_height')}
        />
        <TextSetting
          label={t('admin.appearance.alt_field')}
          value={config.accessibility.assets.alt}
          onChange={set('accessibility.assets.alt')}
          rules={[required]}
        />
        <SelectSetting
          label={t('admin.appearance.alt_fallback')}
          value={config.accessibility.assets.alt_fallback.field_name}
          options={[
            { value: '', label: t('admin.appearance.alt_fallback_none') },
            ...[
              ...new Set([
                ...(fields ?? []).map((f) => f.field_name),
                config.accessibility.assets.alt_fallback.field_name,
              ]),
            ]
              .filter(Boolean)
              .map((name) => ({ value: name, label: name })),
          ]}
          onChange={set('accessibility.assets.alt_fallback.field_name')}
        />
        {altLanguages.map((lang) => (
          <TextSetting
            key={lang}
            label={t('admin.appearance.alt_fallback_text', { lang: lang.toUpperCase() })}
            value={altTexts[lang] ?? ''}
            onChange={setAltText(lang)}
            configKey="accessibility.assets.alt_fallback.options.text{}"
          />
        ))}
        {[config.accessibility.assets.alt, config.accessibility.assets.alt_fallback.field_name]
          .filter(missingFrom(fields))
          .map((name) => (
            <Alert key={name} severity="error">
              {t('admin.appearance.alt_field_missing', { field: name })}
            </Alert>
          ))}
      </Section>
      <FieldColumnsEditor />
      {editing !== null && themes[editing] && (
        <ThemeColoursDialog
          theme={themes[editing]}
          title={themeName(themes[editing])}
          onClose={() => setEditing(null)}
          onApply={(appearance, advanced) => {
            set(`themes.options.${editing}.appearance`)(appearance);
            set(`themes.options.${editing}.advanced_appearance`)(advanced);
            setEditing(null);
          }}
        />
      )}
    </>
  );
}

/** The theme colour modal: 12 colours with a live preview of how they combine. */
function ThemeColoursDialog({
  theme,
  title,
  onClose,
  onApply,
}: {
  theme: ThemeConfig;
  title: string;
  onClose: () => void;
  onApply: (appearance: ThemeAppearance, advanced: Record<string, string>) => void;
}) {
  const { t } = useTranslation();
  const [colours, setColours] = useState<ThemeAppearance>(theme.appearance);
  // Colours of single components (admin-spec §3 "Theme" advanced_appearance), as rows to edit.
  const [advanced, setAdvanced] = useState<[string, string][]>(() => Object.entries(theme.advanced_appearance));
  const advancedValid = advanced.every(
    ([key, colour], i) => componentKey.test(key) && isHexColour(colour) && advanced.findIndex(([k]) => k === key) === i,
  );
  const valid = themeColourKeys.every((k) => isHexColour(colours[k])) && advancedValid;
  const changeAdvanced = (index: number, row: [string, string]) =>
    setAdvanced(advanced.map((r, i) => (i === index ? row : r)));
  const c = (key: keyof ThemeAppearance, fallback: string) => (isHexColour(colours[key]) ? colours[key] : fallback);
  return (
    <FormDialog
      id="theme-colours"
      title={t('admin.appearance.colours_title', { theme: title })}
      submitLabel={t('admin.confirm.apply')}
      submitDisabled={!valid}
      onClose={onClose}
      onSubmit={() => onApply(colours, Object.fromEntries(advanced))}
      wide
    >
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2, flex: 1 }}>
          {themeColourKeys.map((key) => (
            <TextField
              key={key}
              size="small"
              label={t(`admin.appearance.colours.${key}`)}
              value={colours[key]}
              error={!isHexColour(colours[key])}
              helperText={isHexColour(colours[key]) ? undefined : t('admin.appearance.colour_invalid')}
              onChange={(e) => setColours({ ...colours, [key]: e.target.value })}
              {...configMarker(undefined, `themes.options[].appearance.${key}`)}
              slotProps={{
                input: {
                  startAdornment: (
                    <Box
                      aria-hidden
                      sx={{ width: 16, height: 16, mr: 1, flexShrink: 0, border: 1, bgcolor: c(key, '#ffffff') }}
                    />
                  ),
                },
              }}
            />
          ))}
        </Box>
        <Box
          role="img"
          aria-label={t('admin.appearance.preview')}
          sx={{ flex: 1, minWidth: 220, border: 1, borderColor: 'divider', bgcolor: c('background', '#fff') }}
        >
          <Box sx={{ p: 1, bgcolor: c('navigation', '#fff'), color: c('on_navigation', '#000') }}>
            {t('admin.appearance.preview_navigation')}
          </Box>
          <Box sx={{ p: 2, color: c('on_background', '#000') }}>
            <Box sx={{ p: 1, mb: 1, bgcolor: c('surface', '#fff'), color: c('on_surface', '#000') }}>
              {t('admin.appearance.preview_card')}
            </Box>
            <PreviewChip
              colour={c('primary', '#000')}
              text={c('on_primary', '#fff')}
              label={t('admin.appearance.preview_button')}
            />
            <PreviewChip
              colour={c('secondary', '#000')}
              text={c('on_secondary', '#fff')}
              label={t('admin.appearance.preview_secondary')}
            />
          </Box>
        </Box>
      </Stack>
      <Stack role="group" aria-label={t('admin.appearance.advanced')} spacing={1}>
        <Typography component="h3" variant="subtitle1">
          {t('admin.appearance.advanced')}
        </Typography>
        {advanced.map(([key, colour], index) => {
          const n = index + 1;
          const keyTaken = advanced.findIndex(([k]) => k === key) !== index;
          return (
            <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <TextField
                size="small"
                label={t('admin.appearance.advanced_key', { n })}
                value={key}
                error={!componentKey.test(key) || keyTaken}
                helperText={
                  keyTaken
                    ? t('admin.validation.key_unique')
                    : componentKey.test(key)
                      ? undefined
                      : t('admin.appearance.advanced_key_invalid')
                }
                onChange={(e) => changeAdvanced(index, [e.target.value, colour])}
                {...configMarker(undefined, 'themes.options[].advanced_appearance{}')}
              />
              <TextField
                size="small"
                label={t('admin.appearance.advanced_colour', { n })}
                value={colour}
                error={!isHexColour(colour)}
                helperText={isHexColour(colour) ? undefined : t('admin.appearance.colour_invalid')}
                onChange={(e) => changeAdvanced(index, [key, e.target.value])}
                {...configMarker(undefined, 'themes.options[].advanced_appearance{}')}
              />
              <Button onClick={() => setAdvanced(advanced.filter((_, i) => i !== index))}>
                {t('admin.appearance.advanced_remove', { n })}
              </Button>
            </Stack>
          );
        })}
        <Button sx={{ alignSelf: 'flex-start' }} onClick={() => setAdvanced([...advanced, ['', '#000000']])}>
          {t('admin.appearance.advanced_add')}
        </Button>
      </Stack>
    </FormDialog>
  );
}

/** A component colour's key: dot-separated names, as the portal's CSS variables take them (card.border). */
const componentKey = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/i;

function PreviewChip({ colour, text, label }: { colour: string; text: string; label: string }) {
  return (
    <Box
      component="span"
      sx={{ display: 'inline-block', px: 2, py: 1, mr: 1, borderRadius: 1, bgcolor: colour, color: text }}
    >
      {label}
    </Box>
  );
}
