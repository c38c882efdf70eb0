// What a scenario is measured against: the fake upstream itself (direct), Tollgate's gateway in
// distributed mode (tollgate) and in embedded mode (tollgate-embedded), and Portkey's gateway pointed
// at the same fake upstream. Each is a chat-completions URL with headers; the harness adds the
// target's processes (`processes: { own, infra }`) for the CPU and memory readings.
import { UPSTREAM_KEY, UPSTREAM_MODEL } from './seed.mjs';

export function benchTargets({ upstreamUrl, gatewayUrl, customer, embedded, portkeyUrl }) {
  const targets = [
    {
      name: 'direct',
      url: `${upstreamUrl}/v1/chat/completions`,
      headers: { authorization: `Bearer ${UPSTREAM_KEY}` },
      model: UPSTREAM_MODEL,
    },
    {
      name: 'tollgate',
      url: `${gatewayUrl}/v1/chat/completions`,
      headers: { authorization: `Bearer ${customer.apiKey}` },
      model: customer.model,
    },
  ];
  if (embedded) {
    targets.push({
      name: 'tollgate-embedded',
      url: `${embedded.url}/v1/chat/completions`,
      headers: { authorization: `Bearer ${embedded.customer.apiKey}` },
      model: embedded.customer.model,
    });
  }
  if (portkeyUrl) {
    targets.push({
      name: 'portkey',
      url: `${portkeyUrl}/v1/chat/completions`,
      headers: {
        authorization: `Bearer ${UPSTREAM_KEY}`,
        'x-portkey-provider': 'openai',
        'x-portkey-custom-host': `${upstreamUrl}/v1`,
      },
      model: UPSTREAM_MODEL,
    });
  }
  return targets;
}

/** The targets in a different order each round, so no target always runs first (or last). */
export function rotated(targets, round) {
  const shift = round % targets.length;
  return [...targets.slice(shift), ...targets.slice(0, shift)];
}
