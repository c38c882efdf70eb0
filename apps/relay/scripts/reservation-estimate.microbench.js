// Micro-benchmark of the reservation's prompt figure: tokenising the prompt (countPromptTokens, what
// relay did per call) against the size bound (promptTokensUpperBound, what it does now).
// Run after a build: npx tsc -b apps/relay/tsconfig.json && node apps/relay/scripts/reservation-estimate.microbench.js
const { performance } = require('node:perf_hooks');
const { countPromptTokens, promptTokensUpperBound } = require('../dist/token-counting');

const sentence = 'The quick brown fox jumps over the lazy dog, then checks the weather in Paris. ';
const chat = (chars) => ({
  model: 'gpt-4o',
  max_tokens: 256,
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: sentence.repeat(Math.max(1, Math.round(chars / sentence.length))) },
  ],
});

function perCallMicroseconds(run, minMs = 1000) {
  for (let i = 0; i < 50; i++) run();
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    run();
    calls++;
  }
  return ((performance.now() - start) * 1000) / calls;
}

const loadStart = performance.now();
countPromptTokens(chat(10));
console.log(`first count (loads o200k_base): ${(performance.now() - loadStart).toFixed(0)} ms`);
console.log('body bytes | tokenise µs/call | size bound µs/call');
for (const chars of [200, 4_000, 100_000]) {
  const request = chat(chars);
  const bodyBytes = Buffer.byteLength(JSON.stringify(request));
  const counted = perCallMicroseconds(() => countPromptTokens(request));
  const bound = perCallMicroseconds(() => promptTokensUpperBound(bodyBytes, request));
  console.log(`${bodyBytes} | ${counted.toFixed(1)} | ${bound.toFixed(3)}`);
}
