// Time to first token through the online chat (gateway -> chat -> relay -> upstream) against the same
// stream as an API call through the gateway (gateway -> relay -> upstream) and the upstream itself,
// in the same run; "added" is against the API call, so it is what the chat service costs.
import { timeToFirstToken } from './ttft.mjs';

export function chatTimeToFirstToken({ targets, chatTarget, upstream, rounds, durationSeconds }) {
  const compared = [...targets.filter((t) => t.name === 'direct' || t.name === 'tollgate'), chatTarget];
  return timeToFirstToken({ targets: compared, upstream, rounds, durationSeconds, baseline: 'tollgate' });
}
