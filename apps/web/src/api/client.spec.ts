import { ApiError } from './api-error';
import { createApiClient, type ApiClientDeps } from './client';
import { retryDelayMs, shouldRetry } from './retry-policy';
import { InvalidUserIdError } from '../features/session/user-id-store';

/** jsdom has no Response: the client only reads status, ok and json(). */
function answer(status: number, body: unknown): Response {
  const json = async () => (typeof body === 'string' ? JSON.parse(body) : body);
  return { status, ok: status >= 200 && status < 300, json } as Response;
}

function clientWith(responses: Response[], overrides: Partial<ApiClientDeps> = {}) {
  const fetch = jest.fn<Promise<Response>, Parameters<typeof globalThis.fetch>>();
  responses.forEach((response) => fetch.mockResolvedValueOnce(response));
  const sleep = jest.fn<Promise<void>, [number]>().mockResolvedValue(undefined);
  const onUnauthorized = jest.fn();
  const deps: ApiClientDeps = { fetch, sleep, readUserId: () => 7, onUnauthorized, ...overrides };
  return { client: createApiClient(deps), fetch, sleep, onUnauthorized };
}

describe('retry policy', () => {
  it('retries 502 up to three times', () => {
    expect([0, 1, 2, 3].map((done) => shouldRetry(502, done))).toEqual([true, true, true, false]);
  });

  it('retries a 500 only when it is the first failure', () => {
    expect(shouldRetry(500, 0)).toBe(true);
    expect(shouldRetry(500, 1)).toBe(false);
  });

  it('never retries other statuses', () => {
    for (const status of [200, 400, 401, 404, 429, 503, 504]) expect(shouldRetry(status, 0)).toBe(false);
  });

  it('waits 2000 ms, then 1.5 times longer each time, never more than 8000 ms', () => {
    expect([0, 1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([2000, 3000, 4500, 6750, 8000, 8000]);
  });
});

describe('API client', () => {
  it('sends credentials, JSON and the New-Api-User header, and returns the data', async () => {
    const { client, fetch } = clientWith([answer(200, { success: true, message: '', data: { id: 1 } })]);
    await expect(client.data('POST', '/user/login', { body: { username: 'a' } })).resolves.toEqual({ id: 1 });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/user/login');
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toMatchObject({ 'New-Api-User': '7', 'Content-Type': 'application/json' });
    expect(init?.body).toBe('{"username":"a"}');
  });

  it('puts query parameters in the address and leaves out the header when signed out', async () => {
    const { client, fetch } = clientWith([answer(200, { success: true, message: '' })], {
      readUserId: () => null,
    });
    await client.send('GET', '/verification', { query: { email: 'a@b.ru', skip: undefined } });
    expect(fetch.mock.calls[0][0]).toBe('/api/verification?email=a%40b.ru');
    expect(fetch.mock.calls[0][1]?.headers).not.toHaveProperty('New-Api-User');
  });

  it('retries a 502 with the policy delays and succeeds', async () => {
    const { client, sleep } = clientWith([
      answer(502, { success: false, message: 'down' }),
      answer(502, { success: false, message: 'down' }),
      answer(200, { success: true, message: '', data: 'ok' }),
    ]);
    await expect(client.data('GET', '/status')).resolves.toBe('ok');
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([2000, 3000]);
  });

  it('gives up after three retries of 502 with the last answer', async () => {
    const down = () => answer(502, { success: false, message: 'down' });
    const { client, fetch } = clientWith([down(), down(), down(), down()]);
    await expect(client.send('GET', '/status')).rejects.toMatchObject({ kind: 'http', status: 502 });
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('retries a 500 once and then reports the error', async () => {
    const broken = () => answer(500, { success: false, message: 'boom' });
    const { client, fetch } = clientWith([broken(), broken()]);
    await expect(client.send('GET', '/status')).rejects.toEqual(new ApiError('http', 'boom', 500));
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('signs out on a 401 answered to a signed-in user', async () => {
    const { client, onUnauthorized } = clientWith([answer(401, { success: false, message: 'expired' })]);
    await expect(client.send('GET', '/user/self')).rejects.toMatchObject({ kind: 'http', status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not sign out on a 401 to a visitor (a wrong password, say)', async () => {
    const { client, onUnauthorized } = clientWith([answer(401, { success: false, message: 'bad' })], {
      readUserId: () => null,
    });
    await expect(client.send('POST', '/user/login')).rejects.toMatchObject({ status: 401, message: 'bad' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('refuses to call at all with an invalid stored user id', async () => {
    const { client, fetch } = clientWith([], {
      readUserId: () => {
        throw new InvalidUserIdError('0');
      },
    });
    await expect(client.send('GET', '/user/self')).rejects.toEqual(
      new ApiError('invalid_user_id', 'Invalid user ID'),
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('reports success: false with the server message', async () => {
    const { client } = clientWith([answer(200, { success: false, message: 'Неверный пароль' })]);
    await expect(client.send('POST', '/user/login')).rejects.toEqual(
      new ApiError('rejected', 'Неверный пароль', 200),
    );
  });

  it('treats a successful answer without data as rejected when data is needed', async () => {
    const { client } = clientWith([answer(200, { success: true, message: 'hm' })]);
    await expect(client.data('POST', '/user/login')).rejects.toMatchObject({
      kind: 'rejected',
      message: 'hm',
    });
  });

  it('reports a gateway 404 envelope message as it is', async () => {
    const { client } = clientWith([answer(404, { success: false, message: 'No route for POST /api/x' })]);
    await expect(client.send('POST', '/x')).rejects.toMatchObject({
      status: 404,
      message: 'No route for POST /api/x',
    });
  });

  it('reports a network failure and a non-JSON answer as network errors', async () => {
    const failing = jest.fn().mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const { client } = clientWith([], { fetch: failing });
    await expect(client.send('GET', '/status')).rejects.toMatchObject({ kind: 'network' });
    const html = clientWith([answer(200, '<html>')]);
    await expect(html.client.send('GET', '/status')).rejects.toMatchObject({ kind: 'network', status: 200 });
  });
});
