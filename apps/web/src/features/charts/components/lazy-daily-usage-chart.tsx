import { Suspense } from 'react';
import { lazyNamed } from '../../../lib/lazy-named';
import type { DailyUsageChartProps } from './daily-usage-chart';

const DailyUsageChart = lazyNamed(() => import('./daily-usage-chart'), 'DailyUsageChart');

/**
 * The daily usage chart with Chart.js (the largest library the app uses) fetched on first use, so
 * the dashboard paints without waiting for it; the space the chart takes is kept meanwhile.
 */
export function LazyDailyUsageChart(props: DailyUsageChartProps) {
  return (
    <Suspense fallback={<div className="h-64 w-full" aria-hidden="true" />}>
      <DailyUsageChart {...props} />
    </Suspense>
  );
}
