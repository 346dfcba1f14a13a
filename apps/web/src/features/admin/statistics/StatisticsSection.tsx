import { Alert, Box, LinearProgress, Link as TextLink, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useMemo, useState, type ReactNode } from 'react';
import { configThumbnailCall } from '@vitrine/contract/endpoints';
import type { INSIGHT_PERIODS, InsightAudience, InsightsAnswer, InsightsQuery } from '@vitrine/contract/insights';
import { routePath } from '@vitrine/contract/paths';
import { PageLoading } from '../../../components/PageLoading.tsx';
import { ApiError, callUrl } from '../../../lib/apiClient.ts';
import { thumbPicture } from '../../../lib/pictures.ts';
import { Link, useNavigate, useSearchParams } from '../../../lib/router.tsx';
import { useTranslation } from '../../../lib/translate.tsx';
import { useInsights } from './queries.ts';
import { CategoryChart, ChartWithTable, DaysChart } from './InsightChart.tsx';
import { InsightTable, type Column, type Period } from './InsightTable.tsx';

/*
 * The contract's periods and audiences, checked against its types: importing its values would bring
 * zod into this chunk, and a module shared with the admin chunk is split out of it.
 */
const periods: typeof INSIGHT_PERIODS = [7, 30, 90, 365];
const audiences = ['all', 'guests', 'accounts'] as const satisfies readonly InsightAudience[];
const DEFAULT_DAYS = 30;
const RANGE = 'range';
const isDay = (text: string | null): text is string => text !== null && /^\d{4}-\d{2}-\d{2}$/.test(text);
const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

/** What the address asks for: `?days=90&audience=guests`, or `?from=…&to=…` for any other period. */
interface View {
  days: number;
  from?: string;
  to?: string;
  audience: InsightAudience;
}

function readView(params: URLSearchParams): View {
  const days = Number(params.get('days'));
  const audience = params.get('audience');
  const from = params.get('from');
  const to = params.get('to');
  return {
    days: (periods as readonly number[]).includes(days) ? days : DEFAULT_DAYS,
    ...(isDay(from) ? { from, ...(isDay(to) ? { to } : {}) } : {}),
    audience: (audiences as readonly string[]).includes(audience ?? '') ? (audience as InsightAudience) : 'all',
  };
}

function writeView(view: View): string {
  const pairs: [string, string][] =
    view.from === undefined
      ? [['days', String(view.days)]]
      : [['from', view.from], ...(view.to ? [['to', view.to] as [string, string]] : [])];
  if (view.audience !== 'all') pairs.push(['audience', view.audience]);
  return `${routePath({ page: 'admin', section: 'statistics' })}?${new URLSearchParams(pairs).toString()}`;
}

const queryOf = (view: View): InsightsQuery =>
  view.from === undefined
    ? { days: view.days, audience: view.audience }
    : { from: view.from, ...(view.to ? { to: view.to } : {}), audience: view.audience };

/** The Statistics section (issue #51): what was searched, viewed and downloaded in a period, by whom. */
export function StatisticsSection() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const view = readView(params);
  const answer = useInsights(queryOf(view));
  const show = (next: View) => void navigate(writeView(next), { replace: true });
  return (
    <Stack spacing={3} sx={{ minWidth: 0 }}>
      <Pickers view={view} onChange={show} />
      {answer.isPending ? (
        <PageLoading />
      ) : answer.isError ? (
        <Alert severity="error">
          {t('insights.error')}
          {answer.error instanceof ApiError && answer.error.body?.message ? ` ${answer.error.body.message}` : ''}
        </Alert>
      ) : (
        <>
          {answer.isFetching && <LinearProgress aria-label={t('insights.loading')} />}
          <Figures answer={answer.data} />
        </>
      )}
    </Stack>
  );
}

function Pickers({ view, onChange }: { view: View; onChange: (view: View) => void }) {
  const { t } = useTranslation();
  const period = view.from === undefined ? String(view.days) : RANGE;
  // A date being typed is kept here until it is a whole day.
  const [typed, setTyped] = useState<{ from?: string; to?: string }>({});
  const setDay = (which: 'from' | 'to', value: string) => {
    setTyped((had) => ({ ...had, [which]: value }));
    if (isDay(value)) onChange({ ...view, from: view.from ?? value, [which]: value });
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ flexWrap: 'wrap' }} useFlexGap>
      <TextField
        select
        size="small"
        label={t('insights.period')}
        value={period}
        sx={{ minWidth: 180 }}
        onChange={(e) => {
          setTyped({});
          const to = today();
          onChange(
            e.target.value === RANGE
              ? { ...view, from: daysBefore(to, view.days - 1), to }
              : { days: Number(e.target.value), audience: view.audience },
          );
        }}
      >
        {periods.map((days) => (
          <MenuItem key={days} value={String(days)}>
            {t('insights.period_days', { days })}
          </MenuItem>
        ))}
        <MenuItem value={RANGE}>{t('insights.period_range')}</MenuItem>
      </TextField>
      {view.from !== undefined && (
        <>
          <TextField
            type="date"
            size="small"
            label={t('insights.from')}
            value={typed.from ?? view.from}
            onChange={(e) => setDay('from', e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="date"
            size="small"
            label={t('insights.to')}
            value={typed.to ?? view.to ?? today()}
            onChange={(e) => setDay('to', e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </>
      )}
      <TextField
        select
        size="small"
        label={t('insights.audience')}
        value={view.audience}
        sx={{ minWidth: 160 }}
        onChange={(e) => onChange({ ...view, audience: e.target.value as InsightAudience })}
      >
        {audiences.map((audience) => (
          <MenuItem key={audience} value={audience}>
            {t(`insights.audience_${audience}`)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

/** Numbers and days in the interface language. */
function useFormats() {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  return useMemo(() => {
    const number = new Intl.NumberFormat(lang);
    const long = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
    const short = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const at = (day: string) => new Date(`${day}T00:00:00Z`);
    return {
      number: (n: number) => number.format(n),
      day: (day: string) => long.format(at(day)),
      shortDay: (day: string) => short.format(at(day)),
    };
  }, [lang]);
}

const totalKeys = [
  ['searches', 'searches'],
  ['searchesWithoutResults', 'searches_without_results'],
  ['views', 'views'],
  ['downloads', 'downloads'],
  ['zips', 'zips'],
  ['shareOpens', 'share_opens'],
  ['logins', 'logins'],
  ['failedLogins', 'failed_logins'],
] as const satisfies readonly (readonly [keyof InsightsAnswer['totals'], string])[];

function Figures({ answer }: { answer: InsightsAnswer }) {
  const { t } = useTranslation();
  const format = useFormats();
  const period: Period = { from: answer.from, to: answer.to };
  const used = Object.values(answer.totals).some((n) => n > 0);
  const table = { period, format: format.number };
  const searchColumns: Column<{ text: string; count: number }>[] = [
    {
      label: t('insights.search_text'),
      value: (r) => r.text,
      cell: (r) => (
        <TextLink component={Link} to={routePath({ page: 'search', text: r.text })}>
          {r.text}
        </TextLink>
      ),
    },
    { label: t('insights.asked'), value: (r) => r.count, numeric: true },
  ];
  return (
    <>
      <Typography color="text.secondary">
        {t('insights.range', { from: format.day(answer.from), to: format.day(answer.to) })}
      </Typography>
      {!used ? (
        <Alert severity="info">{t('insights.empty')}</Alert>
      ) : (
        <>
          <Part title={t('insights.totals')}>
            <Box
              component="dl"
              sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 2, m: 0 }}
            >
              {totalKeys.map(([key, text]) => (
                <Box key={key} sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {t(`insights.${text}`)}
                  </Typography>
                  <Typography component="dd" variant="h5" sx={{ m: 0 }}>
                    {format.number(answer.totals[key])}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Part>
          <Part title={t('insights.per_day')}>
            <ChartWithTable
              label={t('insights.per_day')}
              chart={
                <DaysChart
                  days={answer.days.map((d) => d.day)}
                  dayLabel={format.shortDay}
                  series={(['searches', 'views', 'downloads'] as const).map((key) => ({
                    label: t(`insights.${key}`),
                    data: answer.days.map((d) => d[key]),
                  }))}
                />
              }
              table={(hidden) => (
                <InsightTable
                  {...table}
                  hidden={hidden}
                  caption={t('insights.per_day')}
                  file="per-day"
                  rows={answer.days}
                  rowKey={(d) => d.day}
                  columns={[
                    { label: t('insights.day'), value: (d) => d.day, cell: (d) => format.day(d.day) },
                    ...totalKeys.map(([key, text]) => ({
                      label: t(`insights.${text}`),
                      value: (d: InsightsAnswer['days'][number]) => d[key],
                      numeric: true,
                    })),
                  ]}
                />
              )}
            />
          </Part>
          <Part title={t('insights.by_set')}>
            <ChartWithTable
              label={t('insights.by_set')}
              chart={
                answer.downloadsBySet.length > 0 && (
                  <CategoryChart
                    categories={answer.downloadsBySet.map((s) => s.title)}
                    series={[{ label: t('insights.downloads'), data: answer.downloadsBySet.map((s) => s.count) }]}
                  />
                )
              }
              table={(hidden) => (
                <InsightTable
                  {...table}
                  hidden={hidden}
                  caption={t('insights.by_set')}
                  file="downloads-by-set"
                  rows={answer.downloadsBySet}
                  rowKey={(s) => String(s.csetId)}
                  columns={[
                    { label: t('insights.set'), value: (s) => s.title },
                    { label: t('insights.downloads'), value: (s) => s.count, numeric: true },
                  ]}
                />
              )}
            />
          </Part>
          <Part title={t('insights.logins_by_method')}>
            <ChartWithTable
              label={t('insights.logins_by_method')}
              chart={
                answer.logins.length > 0 && (
                  <CategoryChart
                    categories={answer.logins.map((l) => t(`insights.method_${l.method}`))}
                    series={[
                      { label: t('insights.ok'), data: answer.logins.map((l) => l.ok) },
                      { label: t('insights.failed'), data: answer.logins.map((l) => l.failed) },
                    ]}
                  />
                )
              }
              table={(hidden) => (
                <InsightTable
                  {...table}
                  hidden={hidden}
                  caption={t('insights.logins_by_method')}
                  file="logins"
                  rows={answer.logins}
                  rowKey={(l) => l.method}
                  columns={[
                    { label: t('insights.method'), value: (l) => t(`insights.method_${l.method}`) },
                    { label: t('insights.ok'), value: (l) => l.ok, numeric: true },
                    { label: t('insights.failed'), value: (l) => l.failed, numeric: true },
                  ]}
                />
              )}
            />
          </Part>
          <AssetPart
            title={t('insights.top_downloaded')}
            file="most-downloaded"
            rows={answer.topDownloaded}
            countLabel={t('insights.downloads')}
            table={table}
          />
          <AssetPart
            title={t('insights.top_viewed')}
            file="most-viewed"
            rows={answer.topViewed}
            countLabel={t('insights.views')}
            table={table}
          />
          <Part title={t('insights.top_searches')}>
            <InsightTable
              {...table}
              caption={t('insights.top_searches')}
              file="top-searches"
              rows={answer.topSearches}
              rowKey={(s) => s.text}
              columns={searchColumns}
            />
          </Part>
          <Part title={t('insights.searches_without_results')}>
            <InsightTable
              {...table}
              caption={t('insights.searches_without_results')}
              file="searches-without-results"
              rows={answer.searchesWithoutResults}
              rowKey={(s) => s.text}
              columns={searchColumns}
            />
          </Part>
          <Part title={t('insights.facets')}>
            <InsightTable
              {...table}
              caption={t('insights.facets')}
              file="facets"
              rows={answer.facets}
              rowKey={(f) => f.key}
              columns={[
                { label: t('insights.facet'), value: (f) => f.key },
                { label: t('insights.count'), value: (f) => f.count, numeric: true },
              ]}
            />
          </Part>
          <Part title={t('insights.collections')}>
            <InsightTable
              {...table}
              caption={t('insights.collections')}
              file="collections"
              rows={answer.collections}
              rowKey={(c) => String(c.id)}
              columns={[
                { label: t('insights.collection'), value: (c) => c.name },
                { label: t('insights.views'), value: (c) => c.views, numeric: true },
                { label: t('insights.downloads'), value: (c) => c.downloads, numeric: true },
              ]}
            />
          </Part>
        </>
      )}
    </>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ minWidth: 0 }}>
      <Typography component="h3" variant="h6" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

type AssetRow = InsightsAnswer['topViewed'][number];

/** Assets with their thumbnails, each linking to its page; one that is gone is named so, without a link. */
function AssetPart({
  title,
  file,
  rows,
  countLabel,
  table,
}: {
  title: string;
  file: string;
  rows: readonly AssetRow[];
  countLabel: string;
  table: { period: Period; format: (n: number) => string };
}) {
  const { t } = useTranslation();
  return (
    <Part title={title}>
      <InsightTable
        {...table}
        caption={title}
        file={file}
        rows={rows}
        rowKey={(a) => a.id}
        columns={[
          {
            label: t('insights.asset'),
            value: (a) => a.title ?? t('insights.asset_gone'),
            cell: (a) =>
              a.title === null ? (
                <Typography component="span" variant="body2" color="text.secondary">
                  {t('insights.asset_gone')}
                </Typography>
              ) : (
                <TextLink
                  component={Link}
                  to={routePath({ page: 'asset', id: a.id })}
                  sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.5 }}
                >
                  <Box
                    component="img"
                    alt=""
                    {...thumbPicture(callUrl(configThumbnailCall, { query: { id: a.id } }), { sizes: '64px' })}
                    sx={{ width: 64, height: 40, objectFit: 'contain', flexShrink: 0 }}
                  />
                  {a.title}
                </TextLink>
              ),
          },
          { label: t('insights.asset_id'), value: (a) => a.id },
          { label: countLabel, value: (a) => a.count, numeric: true },
        ]}
      />
    </Part>
  );
}
