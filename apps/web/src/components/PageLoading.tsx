import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from '../lib/translate.tsx';

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
      <CircularProgress aria-label={t('global.loading')} />
    </Box>
  );
}
