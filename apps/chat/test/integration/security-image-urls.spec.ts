import type { ChatMessageView, ChatView } from '@tollgate/contracts';
import { ChatHarness } from './chat-harness';

jest.setTimeout(120_000);

/**
 * Server-side request forgery through a chat's image URL: the model's upstream fetches the image,
 * and a self-hosted upstream sits inside the operator's network. Unless CHAT_IMAGE_URL_ALLOWED_RANGES
 * names them, loopback, private, link-local and unspecified hosts are refused before anything is
 * stored or sent.
 */
describe('image URLs in chat messages', () => {
  const harness = new ChatHarness('real', 'chat-ssrf-it');

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  const withImage = (url: string) => ({
    content: [
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url } },
    ],
  });

  it('refuses an image on a loopback, private, link-local or unspecified host, writing nothing', async () => {
    const user = await harness.user(50_000_000);
    const chat = (await user.call<ChatView>('/api/chat', { body: { model: harness.model } })).body.data!;

    for (const [url, range] of [
      ['https://169.254.169.254/latest/meta-data/iam', 'link-local'],
      ['https://[::ffff:a9fe:a9fe]/', 'link-local'],
      ['https://127.0.0.1:8443/admin.png', 'loopback'],
      ['https://2130706433/cat.png', 'loopback'],
      ['https://localhost/cat.png', 'loopback'],
      ['https://10.0.0.5/cat.png', 'private'],
      ['https://[fd00::5]/cat.png', 'private'],
      ['https://0.0.0.0/cat.png', 'unspecified'],
    ] as const) {
      const answer = await user.send(chat.id, withImage(url));
      const body = (await answer.json()) as { success: boolean; message: string };
      expect({ url, status: answer.status, success: body.success }).toEqual({
        url,
        status: 400,
        success: false,
      });
      expect(body.message).toContain(`в диапазон ${range},`);
    }
    expect((await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data).toEqual([]);
  });

  it('sends an image on a public host or inline as a data URL', async () => {
    const user = await harness.user(50_000_000);
    const chat = (await user.call<ChatView>('/api/chat', { body: { model: harness.model } })).body.data!;

    for (const url of ['https://images.example.com/cat.png', 'data:image/png;base64,iVBORw0KGgo=']) {
      const answer = await user.send(chat.id, withImage(url));
      expect(answer.status).toBe(200);
      await answer.text();
    }
    const history = (await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data!;
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });
});
