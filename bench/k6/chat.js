// Non-streaming chat completions from VUS closed-loop virtual users for DURATION, against one target.
// Environment: TARGET_URL, HEADERS (JSON object), MODEL, VUS, DURATION (e.g. "10s"), SUMMARY_FILE.
import http from 'k6/http';

const headers = Object.assign({ 'content-type': 'application/json' }, JSON.parse(__ENV.HEADERS || '{}'));
const body = JSON.stringify({
  model: __ENV.MODEL,
  messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
  max_tokens: 16,
});

export const options = {
  scenarios: {
    closed_loop: {
      executor: 'constant-vus',
      vus: Number(__ENV.VUS || 1),
      duration: __ENV.DURATION || '10s',
      gracefulStop: '5s',
    },
  },
  discardResponseBodies: true,
  summaryTrendStats: ['avg', 'min', 'med', 'p(50)', 'p(90)', 'p(99)', 'max'],
  // The run is judged by the harness, not by thresholds.
  noConnectionReuse: false,
};

export default function () {
  http.post(__ENV.TARGET_URL, body, { headers });
}

export function handleSummary(data) {
  return { [__ENV.SUMMARY_FILE]: JSON.stringify(data.metrics) };
}
