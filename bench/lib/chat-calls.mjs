// Non-streaming chat calls through a gateway from this process (undici, keep-alive, `concurrency`
// calls in flight), for the scripts that read CPU per call from /proc rather than drive k6.
import { waitFor } from './processes.mjs';

/** The request body every such call sends. */
export const chatCallBody = (model) =>
  JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
    max_tokens: 16,
  });

/**
 * Waits until `url` answers a call with the customer's key (a 402 means the balance has not
 * reached relay yet, so it is published again).
 */
export async function waitForFirstCall({ url, customer, what = 'a call' }) {
  await waitFor(what, async () => {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${customer.apiKey}`, 'content-type': 'application/json' },
      body: chatCallBody(customer.model),
    });
    if (res.status === 402) await customer.republishBalance();
    return res.status === 200 || `${res.status} ${await res.text()}`;
  });
}

/**
 * Sends `calls` calls to `url`'s /v1/chat/completions with the customer's key, `concurrency` at a
 * time. `Pool` is undici's, from the checkout being measured. Counts the answers that are not 200
 * and keeps the first of them; with `latencies`, pushes each call's ms onto it.
 */
export async function sendChatCalls({ Pool, url, customer, calls, concurrency, latencies }) {
  const pool = new Pool(new URL(url).origin, { connections: concurrency, pipelining: 1 });
  const body = chatCallBody(customer.model);
  const headers = { authorization: `Bearer ${customer.apiKey}`, 'content-type': 'application/json' };
  let next = 0;
  let failed = 0;
  let firstFailure = '';
  async function worker() {
    while (next < calls) {
      next++;
      const callStarted = performance.now();
      const res = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body });
      const text = await res.body.text();
      latencies?.push(performance.now() - callStarted);
      if (res.statusCode !== 200) {
        failed++;
        firstFailure ||= `${res.statusCode} ${text.slice(0, 200)}`;
      }
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { calls, failed, firstFailure, seconds };
}
