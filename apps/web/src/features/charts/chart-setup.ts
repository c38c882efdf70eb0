import { BarElement, CategoryScale, Chart, Filler, Legend, LinearScale, Tooltip } from 'chart.js';

/** SPEC §9: charts animate for 1000 ms by default. */
export const CHART_ANIMATION_MS = 1000;

Chart.register(CategoryScale, LinearScale, BarElement, Tooltip, Legend, Filler);
Chart.defaults.animation = { ...Chart.defaults.animation, duration: CHART_ANIMATION_MS };
Chart.defaults.font.family =
  "'Inter', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
Chart.defaults.color = '#64748b';
