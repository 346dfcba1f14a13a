import { Tooltip } from '@mui/material';
import type { ReactElement } from 'react';

/** Tooltips of icon buttons (portal-spec §9): on top, multiline, at most 275 px wide, in the primary colour. */
export const TOOLTIP_MAX_WIDTH = 275;

export function IconTooltip({ title, children }: { title: string; children: ReactElement }) {
  return (
    <Tooltip
      title={title}
      placement="top"
      slotProps={{
        tooltip: {
          sx: {
            maxWidth: TOOLTIP_MAX_WIDTH,
            whiteSpace: 'pre-line',
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
          },
        },
      }}
    >
      {children}
    </Tooltip>
  );
}
