// The chat scenario's web user: root signs in through the gateway as a browser does, gets the bench
// balance, opens a chat on the bench model and sends one message. Each measured stream then asks to
// regenerate that answer, so every call carries the same prompt.
import { setBenchBalance } from './seed.mjs';

const PROMPT = 'Stream a story to the benchmark.';

async function expectOk(res, what) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res;
}

export async function seedChatUser({ gatewayUrl, billingUrl, internalSecret, root, model }) {
  const login = await expectOk(
    await fetch(`${gatewayUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(root),
    }),
    'root sign-in',
  );
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const userId = (await login.json()).data.id;
  await setBenchBalance({ billingUrl, internalSecret, userId });
  const headers = { cookie, 'new-api-user': String(userId), 'content-type': 'application/json' };

  const created = await expectOk(
    await fetch(`${gatewayUrl}/api/chat`, { method: 'POST', headers, body: JSON.stringify({ model }) }),
    'new chat',
  );
  const chatId = (await created.json()).data.id;
  const url = `${gatewayUrl}/api/chat/${chatId}/messages`;
  const first = await expectOk(
    await fetch(url, { method: 'POST', headers, body: JSON.stringify({ content: PROMPT }) }),
    'first chat message',
  );
  const stream = await first.text();
  if (!stream.includes('"type":"done"'))
    throw new Error(`the first chat answer did not finish: ${stream.slice(-300)}`);

  return {
    name: 'chat',
    url,
    headers: { cookie, 'new-api-user': String(userId) },
    model,
    body: { regenerate: true },
    firstChunk: '"type":"delta"',
    doneMarker: '"type":"done"',
  };
}
