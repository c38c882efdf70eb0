import { Bar } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import type { DayUsage } from '../../activity/daily-usage';
import { intlLocale } from '../../../i18n/language';
import '../chart-setup';

export interface DailyUsageChartProps {
  days: readonly DayUsage[];
  /** Formats a day's spending (quota units) in the display currency. */
  formatQuota: (quota: number) => string;
  /** Turns quota into the currency amount the bars are drawn in. */
  quotaToAmount: (quota: number) => number;
}

/** Spending per day as bars; the tooltip adds requests and tokens. */
export function DailyUsageChart({ days, formatQuota, quotaToAmount }: DailyUsageChartProps) {
  const { t, i18n } = useTranslation('dashboard');
  const locale = intlLocale(i18n.language);
  const dayLabel = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  return (
    <div className="relative h-64 w-full" role="img" aria-label={t('chart_label')}>
      <Bar
        data={{
          labels: days.map((d) => dayLabel.format(new Date(`${d.day}T00:00:00Z`))),
          datasets: [
            {
              label: t('chart_spent'),
              data: days.map((d) => quotaToAmount(d.quota)),
              backgroundColor: '#6366f1',
              borderRadius: 4,
              maxBarThickness: 28,
            },
          ],
        }}
        options={{
          // Chart.js formats its axis numbers in the browser's locale unless told: 0,5 in the English interface.
          locale,
          responsive: true,
          maintainAspectRatio: false,
          plugins: {
            legend: { display: false },
            tooltip: {
              callbacks: {
                label: (item) => {
                  const day = days[item.dataIndex];
                  return [
                    `${t('chart_spent')}: ${formatQuota(day.quota)}`,
                    `${t('chart_requests')}: ${day.requests}`,
                    `${t('chart_tokens')}: ${day.tokens}`,
                  ];
                },
              },
            },
          },
          scales: {
            y: { beginAtZero: true, grid: { color: '#e2e8f0' } },
            x: { grid: { display: false }, ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 7 } },
          },
        }}
      />
    </div>
  );
}
