import { createTheme, type Theme } from '@mui/material/styles';

/** The portal's default light theme (primary orange, portal-spec §9); config themes come later. */
export function buildDefaultTheme(): Theme {
  return createTheme({
    palette: { mode: 'light', primary: { main: '#c25400', contrastText: '#ffffff' } },
    components: { MuiButtonBase: { defaultProps: { disableRipple: false } } },
  });
}
