import { Box, Checkbox, FormControlLabel, useTheme } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useId, useState, type ReactNode } from 'react';
import { visuallyHidden } from '../../../components/visuallyHidden.ts';
import { useTranslation } from '../../../lib/translate.tsx';

const HEIGHT = 280;

export interface Series {
  label: string;
  data: number[];
}

/** The series' colours: the theme's, so the chart reads in the light and the dark theme alike. */
function useSeriesColours(): string[] {
  const { palette } = useTheme();
  return [palette.primary.main, palette.secondary.main, palette.text.secondary];
}

/**
 * A chart with the table it draws: the table is there for screen readers (and for anyone, as a
 * table, with the checkbox); the picture is hidden from them, since the table says the same. So the
 * charts take no keyboard focus (`disableKeyboardNavigation`): a focus inside a part hidden from
 * screen readers would land on nothing they can name.
 */
export function ChartWithTable({
  label,
  chart,
  table,
}: {
  label: string;
  chart: ReactNode;
  table: (hidden: boolean) => ReactNode;
}) {
  const { t } = useTranslation();
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  return (
    <Box component="figure" aria-labelledby={id} sx={{ m: 0, minWidth: 0 }}>
      <Box component="figcaption" id={id} sx={visuallyHidden}>
        {t('insights.chart', { title: label })}
      </Box>
      <FormControlLabel
        // A checkbox, as in the admin area's forms: it shares their code, so the section adds none.
        control={<Checkbox checked={asTable} onChange={(e) => setAsTable(e.target.checked)} />}
        label={t('insights.show_table')}
      />
      {!asTable && (
        <Box aria-hidden sx={{ width: '100%', minWidth: 0, overflow: 'hidden' }}>
          {chart}
        </Box>
      )}
      {table(!asTable)}
    </Box>
  );
}

/** Values per day as lines, the days on the x axis in the interface language. */
export function DaysChart({
  days,
  series,
  dayLabel,
}: {
  days: string[];
  series: Series[];
  dayLabel: (day: string) => string;
}) {
  const colours = useSeriesColours();
  return (
    <LineChart
      height={HEIGHT}
      skipAnimation
      disableKeyboardNavigation
      xAxis={[{ scaleType: 'point', data: days, valueFormatter: dayLabel }]}
      series={series.map((s, i) => ({ ...s, color: colours[i % colours.length], showMark: days.length <= 31 }))}
      margin={{ left: 0, right: 16 }}
    />
  );
}

/** Values per category as bars, one series or several side by side. */
export function CategoryChart({ categories, series }: { categories: string[]; series: Series[] }) {
  const colours = useSeriesColours();
  return (
    <BarChart
      height={HEIGHT}
      skipAnimation
      disableKeyboardNavigation
      xAxis={[{ scaleType: 'band', data: categories }]}
      series={series.map((s, i) => ({ ...s, color: colours[i % colours.length] }))}
      margin={{ left: 0, right: 16 }}
    />
  );
}
