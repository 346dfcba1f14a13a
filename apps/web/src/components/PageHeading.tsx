import { Typography } from '@mui/material';
import type { CSSProperties } from 'react';
import { useTranslation } from '../lib/translate.tsx';

/** The visible page heading, from the same text key as the document title. */
export function PageHeading({
  titleKey,
  textTransform,
}: {
  titleKey: string;
  textTransform?: CSSProperties['textTransform'];
}) {
  const { t } = useTranslation();
  return (
    <Typography component="h1" variant="h4" sx={{ mb: 2, textTransform }}>
      {t(titleKey)}
    </Typography>
  );
}
