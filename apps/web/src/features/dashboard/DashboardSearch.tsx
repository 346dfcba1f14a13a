import { Box, FormControl, IconButton, InputAdornment, InputLabel, OutlinedInput } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SearchIcon } from '../../components/icons.tsx';
import { textSearchPath } from './collectionRoute.ts';

/**
 * The hero's search input. Submitting goes to the search page with the trimmed text (empty text
 * searches everything). Suggestions join once the suggestion call is part of the contract.
 */
export function DashboardSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  return (
    <Box
      component="form"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        void navigate(textSearchPath(text));
      }}
      sx={{ width: '100%', maxWidth: 640 }}
    >
      <FormControl fullWidth sx={{ bgcolor: 'background.paper', borderRadius: 1 }}>
        <InputLabel htmlFor="dashboard-search" sx={{ bgcolor: 'background.paper', px: 0.5 }}>
          {t('views.search.input.label')}
        </InputLabel>
        <OutlinedInput
          id="dashboard-search"
          type="search"
          label={t('views.search.input.label')}
          placeholder={t('views.search.input.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-tour="search_input"
          endAdornment={
            <InputAdornment position="end">
              <IconButton type="submit" edge="end" aria-label={t('views.search.input.submit')}>
                <SearchIcon />
              </IconButton>
            </InputAdornment>
          }
        />
      </FormControl>
    </Box>
  );
}
