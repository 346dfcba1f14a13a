import { useTranslation } from '../../../lib/translate.tsx';
import { useAdminDraft } from '../AdminDraft.tsx';
import {
  AlignmentSetting,
  LanguageTextSettings,
  Section,
  SelectSetting,
  SwitchSetting,
  TextSetting,
  UploadSetting,
} from '../fields.tsx';

export function LoginSection() {
  const { t } = useTranslation();
  const { config, set } = useAdminDraft();
  const login = config.login;
  return (
    <>
      <Section title={t('admin.login.images')}>
        <UploadSetting name="loginLogo" accept="image/*" />
        <UploadSetting name="loginHero" accept="image/*" />
        <TextSetting
          label={t('admin.login.logo_height')}
          value={login.logoImage.height}
          onChange={set('login.logoImage.height')}
        />
      </Section>
      <Section title={t('admin.login.more')}>
        <SwitchSetting
          label={t('admin.login.show_password_reset')}
          checked={login.show_passwordReset}
          onChange={set('login.show_passwordReset')}
        />
        <TextSetting
          label={t('admin.login.box_width')}
          value={login.box.max_width}
          onChange={set('login.box.max_width')}
        />
        <AlignmentSetting
          label={t('admin.login.info_text_alignment')}
          value={login.infoText.alignment}
          onChange={set('login.infoText.alignment')}
        />
        <SelectSetting<'none' | 'uppercase' | 'lowercase' | 'capitalize'>
          label={t('admin.login.headers_transform')}
          value={login.headers.transform}
          options={(['none', 'uppercase', 'lowercase', 'capitalize'] as const).map((v) => ({
            value: v,
            label: t(`admin.login.transform_${v}`),
          }))}
          onChange={set('login.headers.transform')}
        />
      </Section>
      <Section title={t('admin.login.register')}>
        <SwitchSetting
          label={t('admin.login.show_register')}
          checked={login.register.show_button}
          onChange={set('login.register.show_button')}
        />
        <LanguageTextSettings
          label={t('admin.login.register_link')}
          languages={config.visibleLocales.map((l) => l.lang)}
          value={(lang) => login.register.links[lang] ?? ''}
          onChange={(lang, v) => set(`login.register.links.${lang}`)(v)}
          configKey="login.register.links{}"
        />
      </Section>
    </>
  );
}
