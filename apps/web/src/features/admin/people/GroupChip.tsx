import { Chip, SvgIcon } from '@mui/material';
import { useTranslation } from '../../../lib/translate.tsx';

/** Material's "lock", drawn here: the shell's icon set stays as small as it is. */
const LOCK =
  'M18 8h-1V6c0-2.76-2.24-5-5-5S7 3.24 7 6v2H6c-1.1 0-2 .9-2 2v10c0 1.1.9 2 2 2h12c1.1 0 2-.9 2-2V10c0-1.1-.9-2-2-2m-6 9c-1.1 0-2-.9-2-2s.9-2 2-2 2 .9 2 2-.9 2-2 2m3.1-9H8.9V6c0-1.71 1.39-3.1 3.1-3.1s3.1 1.39 3.1 3.1z';

/** "oidc:corp" → "corp": the provider's name as the settings file gives it. */
export const providerOf = (login: string) => login.replace(/^[^:]*:/, '');

/** A group of an account; one its provider gives shows a lock and says so (it cannot be edited here). */
export function GroupChip({ name, provider }: { name: string; provider: string | null }) {
  const { t } = useTranslation();
  if (provider === null) return <Chip size="small" label={name} />;
  const from = t('people.from_provider', { provider: providerOf(provider) });
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={
        <SvgIcon aria-hidden>
          <path d={LOCK} />
        </SvgIcon>
      }
      label={`${name} (${from})`}
      aria-label={`${name}, ${from}`}
    />
  );
}
