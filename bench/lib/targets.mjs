// What a scenario is measured against: the fake upstream itself (direct), Tollgate's gateway, and
// Portkey's gateway pointed at the same fake upstream. Each is a chat-completions URL with headers.
import { UPSTREAM_KEY, UPSTREAM_MODEL } from './seed.mjs';

export function benchTargets({ upstreamUrl, gatewayUrl, customer, portkeyUrl }) {
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
