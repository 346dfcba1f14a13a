import {
  Box,
  Button,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { DownloadIcon } from '../../../components/icons.tsx';
import { visuallyHidden } from '../../../components/visuallyHidden.ts';
import { useTranslation } from '../../../lib/translate.tsx';
import { csvFileName, saveCsv, toCsv } from './csv.ts';

export interface Column<R> {
  label: string;
  /** The field as the CSV writes it: numbers unformatted, days as YYYY-MM-DD. */
  value: (row: R) => string | number;
  /** The cell as the page shows it (default: the value, numbers in the interface language). */
  cell?: (row: R) => ReactNode;
  numeric?: boolean;
}

export interface Period {
  from: string;
  to: string;
}

/**
 * A table of the statistics with its "Download CSV" button. It scrolls sideways inside its own box,
 * so a narrow screen never scrolls the page. `hidden`: kept for screen readers only (a chart's table
 * while the chart is shown).
 */
export function InsightTable<R>({
  caption,
  file,
  period,
  columns,
  rows,
  rowKey,
  hidden = false,
  format,
}: {
  caption: string;
  /** What the CSV file is named after (`top-searches`). */
  file: string;
  period: Period;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R, index: number) => string;
  hidden?: boolean;
  format: (n: number) => string;
}) {
  const { t } = useTranslation();
  const download = () =>
    saveCsv(
      toCsv(
        columns.map((c) => c.label),
        rows.map((row) => columns.map((c) => c.value(row))),
      ),
      csvFileName(file, period),
    );
  return (
    <Box sx={{ minWidth: 0 }}>
      {rows.length === 0 ? (
        <Typography color="text.secondary">{t('insights.none')}</Typography>
      ) : (
        <>
          <TableContainer sx={hidden ? visuallyHidden : { overflowX: 'auto', maxWidth: '100%' }}>
            <Table size="small">
              <caption style={visuallyHidden}>{caption}</caption>
              <TableHead>
                <TableRow>
                  {columns.map((c) => (
                    <TableCell key={c.label} align={c.numeric ? 'right' : 'left'}>
                      {c.label}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row, i) => (
                  <TableRow key={rowKey(row, i)}>
                    {columns.map((c) => {
                      const value = c.value(row);
                      return (
                        <TableCell key={c.label} align={c.numeric ? 'right' : 'left'}>
                          {c.cell ? c.cell(row) : typeof value === 'number' ? format(value) : value}
                        </TableCell>
                      );
                    })}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <Button
            size="small"
            startIcon={<DownloadIcon />}
            onClick={download}
            aria-label={t('insights.csv_of', { table: caption })}
            sx={{ mt: 1 }}
          >
            {t('insights.csv')}
          </Button>
        </>
      )}
    </Box>
  );
}
